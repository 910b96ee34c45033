import { useApp } from '../app-context.ts'
import type { Settings } from '../settings.ts'

/** How questions are answered; kept in this browser. */
export function SettingsView() {
  const { t, settings, updateSettings } = useApp()
  return (
    <form class="card settings" onSubmit={(event) => event.preventDefault()}>
      <h2>{t('settings.title')}</h2>
      <label>
        {t('settings.mode')}
        <select
          value={settings.mode}
          onChange={(event) => updateSettings({ mode: event.currentTarget.value as Settings['mode'] })}
        >
          <option value="hybrid">{t('settings.mode.hybrid')}</option>
          <option value="keyword">{t('settings.mode.keyword')}</option>
          <option value="vector">{t('settings.mode.vector')}</option>
        </select>
      </label>
      <label>
        {t('settings.topK')}
        <input
          type="number"
          min={1}
          max={20}
          value={settings.topK}
          onChange={(event) =>
            updateSettings({ topK: Math.min(20, Math.max(1, Number(event.currentTarget.value) || 5)) })
          }
        />
      </label>
      <label class="check">
        <input
          type="checkbox"
          checked={settings.fusion}
          onChange={(event) => updateSettings({ fusion: event.currentTarget.checked })}
        />
        {t('settings.fusion')}
      </label>
      <label>
        {t('settings.rerank')}
        <select
          value={settings.rerank}
          onChange={(event) => updateSettings({ rerank: event.currentTarget.value as Settings['rerank'] })}
        >
          <option value="default">{t('settings.default')}</option>
          <option value="on">{t('settings.on')}</option>
          <option value="off">{t('settings.off')}</option>
        </select>
      </label>
      <label>
        {t('settings.answer')}
        <select
          value={settings.answer}
          onChange={(event) => updateSettings({ answer: event.currentTarget.value as Settings['answer'] })}
        >
          <option value="default">{t('settings.default')}</option>
          <option value="generate">{t('settings.answer.generate')}</option>
          <option value="extractive">{t('settings.answer.extractive')}</option>
        </select>
      </label>
    </form>
  )
}

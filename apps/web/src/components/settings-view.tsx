import { SEARCH_MODES } from '@rag/api-contract/enums'
import { MAX_TOP_K } from '@rag/api-contract/limits'
import { useApp } from '../app-context.ts'
import type { MessageKey } from '../i18n.ts'
import type { Settings } from '../settings.ts'

type ChoiceKey = 'mode' | 'rerank' | 'answer'

/** One setting picked from a list: its label and each option's label are message keys. */
function ChoiceSetting<K extends ChoiceKey>({
  name,
  label,
  options,
}: {
  name: K
  label: MessageKey
  options: readonly (readonly [Settings[K], MessageKey])[]
}) {
  const { t, settings, updateSettings } = useApp()
  return (
    <label>
      {t(label)}
      <select
        value={settings[name]}
        onChange={(event) => updateSettings({ [name]: event.currentTarget.value } as Partial<Settings>)}
      >
        {options.map(([value, text]) => (
          <option key={value} value={value}>
            {t(text)}
          </option>
        ))}
      </select>
    </label>
  )
}

/** How questions are answered; kept in this browser. */
export function SettingsView() {
  const { t, settings, updateSettings } = useApp()
  return (
    <form class="card settings" onSubmit={(event) => event.preventDefault()}>
      <h2>{t('settings.title')}</h2>
      <ChoiceSetting
        name="mode"
        label="settings.mode"
        options={SEARCH_MODES.map((mode) => [mode, `settings.mode.${mode}`] as const)}
      />
      <label>
        {t('settings.topK')}
        <input
          type="number"
          min={1}
          max={MAX_TOP_K}
          placeholder={t('settings.default')}
          value={settings.topK ?? ''}
          onChange={(event) => {
            const value = event.currentTarget.value.trim()
            // Empty: the server's default; otherwise a whole number from 1 to 20.
            updateSettings({
              topK: value === '' ? null : Math.min(20, Math.max(1, Math.round(Number(value)) || 1)),
            })
          }}
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
      <ChoiceSetting
        name="rerank"
        label="settings.rerank"
        options={[
          ['default', 'settings.default'],
          ['on', 'settings.on'],
          ['off', 'settings.off'],
        ]}
      />
      <ChoiceSetting
        name="answer"
        label="settings.answer"
        options={[
          ['default', 'settings.default'],
          ['generate', 'settings.answer.generate'],
          ['extractive', 'settings.answer.extractive'],
        ]}
      />
    </form>
  )
}

import { useEffect, useMemo, useState } from 'preact/hooks'
import { api, type Session, type SignInProblem, whenUnauthorized } from './api.ts'
import { AppContext } from './app-context.ts'
import { AskView } from './components/ask-view.tsx'
import { ChatView } from './components/chat-view.tsx'
import { DocumentInspector } from './components/document-inspector.tsx'
import { DocumentsView } from './components/documents-view.tsx'
import { EvaluationView } from './components/evaluation-view.tsx'
import { FeedbackView } from './components/feedback-view.tsx'
import { KeyPrompt } from './components/key-prompt.tsx'
import { KeysView } from './components/keys-view.tsx'
import { SearchView } from './components/search-view.tsx'
import { SettingsView } from './components/settings-view.tsx'
import { SignedInAs } from './components/signed-in-as.tsx'
import { SourcesView } from './components/sources-view.tsx'
import { type Uploads, useUploads } from './components/use-uploads.ts'
import { type MessageKey, preferredLanguage, translator } from './i18n.ts'
import { loadSettings, type Settings, saveSettings } from './settings.ts'

const VIEWS = [
  'documents',
  'chat',
  'ask',
  'search',
  'sources',
  'feedback',
  'evaluation',
  'settings',
  'keys',
] as const
type View = (typeof VIEWS)[number]

/** Keys are for admins; feedback and evaluation are reviewed by editors and admins. */
const visibleTo = (view: View, role: string | undefined) =>
  view === 'keys'
    ? role === 'admin'
    : view === 'feedback' || view === 'evaluation'
      ? role === 'admin' || role === 'editor'
      : true

const viewFromHash = (): View => {
  const name = location.hash.replace(/^#\/?/, '').split('/')[0] ?? ''
  return (VIEWS as readonly string[]).includes(name) ? (name as View) : 'documents'
}

/** `#/documents/<id>`: the document inspector for that document. */
const inspectedFromHash = (): string | null =>
  /^#\/documents\/([0-9a-f-]{36})$/i.exec(location.hash)?.[1] ?? null

export function App() {
  const [settings, setSettings] = useState<Settings>(() =>
    loadSettings(localStorage, preferredLanguage(navigator.languages)),
  )
  const [view, setView] = useState<View>(viewFromHash)
  const [inspected, setInspected] = useState<string | null>(inspectedFromHash)
  const [needsKey, setNeedsKey] = useState(false)
  const [session, setSession] = useState<Session | null>(null)
  // Whether the gateway has said who this is (or could not): until then no view asks it anything.
  const [sessionKnown, setSessionKnown] = useState(false)
  // A single sign-on that came back without a session says why (?sign_in_error=…), once.
  const [signInProblem] = useState(() => {
    const problem = new URLSearchParams(location.search).get('sign_in_error') as SignInProblem | null
    if (problem) history.replaceState(null, '', `/${location.hash}`)
    return problem
  })
  const t = useMemo(() => translator(settings.language), [settings.language])
  const uploads = useUploads(t)

  useEffect(() => {
    const follow = () => {
      setView(viewFromHash())
      setInspected(inspectedFromHash())
    }
    addEventListener('hashchange', follow)
    whenUnauthorized(() => setNeedsKey(true))
    api
      .session()
      .then((session) => {
        setSession(session)
        setNeedsKey((session.keyRequired && !session.authenticated) || signInProblem !== null)
      })
      .catch(() => {})
      .finally(() => setSessionKnown(true))
    return () => removeEventListener('hashchange', follow)
  }, [])
  useEffect(() => {
    document.documentElement.lang = settings.language
    document.title = t('title')
  }, [settings.language, t])

  const updateSettings = (change: Partial<Settings>) =>
    setSettings((current) => {
      const next = { ...current, ...change }
      saveSettings(localStorage, next)
      return next
    })

  return (
    <AppContext.Provider value={{ t, settings, updateSettings }}>
      <header class="top">
        <h1>{t('title')}</h1>
        <nav>
          {VIEWS.filter((name) => visibleTo(name, session?.principal?.role)).map((name) => (
            <a key={name} href={`#/${name}`} class={name === view ? 'active' : ''} data-view={name}>
              {t(`nav.${name}` as MessageKey)}
            </a>
          ))}
        </nav>
        <button
          type="button"
          class="link"
          onClick={() => updateSettings({ language: settings.language === 'ja' ? 'en' : 'ja' })}
        >
          {t('lang.switch')}
        </button>
        {session?.principal ? <SignedInAs principal={session.principal} /> : null}
      </header>
      <main>
        {/* Signing in is all the page offers until then: no view behind it calls the API to be refused. */}
        {needsKey ? (
          <KeyPrompt
            onSignedIn={() => setNeedsKey(false)}
            singleSignOn={session?.singleSignOn ?? null}
            problem={signInProblem}
          />
        ) : sessionKnown ? (
          <Views view={view} inspected={inspected} uploads={uploads} role={session?.principal?.role} />
        ) : null}
      </main>
    </AppContext.Provider>
  )
}

/** The view the address names, with the controls the signed-in role may use. */
function Views({
  view,
  inspected,
  uploads,
  role,
}: {
  view: View
  inspected: string | null
  uploads: Uploads
  role: string | undefined
}) {
  const canEdit = role === 'admin' || role === 'editor'
  return (
    <>
      {view === 'documents' && inspected ? <DocumentInspector key={inspected} id={inspected} /> : null}
      {view === 'documents' && !inspected && (
        <DocumentsView uploads={uploads} canEdit={canEdit} isAdmin={role === 'admin'} />
      )}
      {view === 'chat' && <ChatView />}
      {view === 'ask' && <AskView />}
      {view === 'search' && <SearchView />}
      {view === 'settings' && <SettingsView />}
      {view === 'sources' && <SourcesView canEdit={canEdit} />}
      {view === 'keys' && role === 'admin' && <KeysView />}
      {view === 'feedback' && visibleTo('feedback', role) && <FeedbackView />}
      {view === 'evaluation' && visibleTo('evaluation', role) && <EvaluationView />}
    </>
  )
}

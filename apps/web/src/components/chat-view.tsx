import { isQuestionFinished } from '@rag/api-contract/enums'
import { MAX_QUESTION_CHARS } from '@rag/api-contract/limits'
import { useEffect, useRef, useState } from 'preact/hooks'
import { api, type Conversation, type Question } from '../api.ts'
import { useApp } from '../app-context.ts'
import { followAnswer } from '../ask-stream.ts'
import { askOptions } from '../settings.ts'
import { ChatTurn, type LiveTurn } from './chat-turn.tsx'
import { CollectionSelect } from './collection-select.tsx'
import { ErrorMessage, messageOf } from './error-message.tsx'
import { useCollections } from './use-collections.ts'

const fromQuestion = (question: Question): LiveTurn => ({
  id: question.id,
  question: question.question,
  status: question.status,
  answer: question.answer ?? '',
  result: isQuestionFinished(question.status) ? question : null,
})

/**
 * Conversations: the caller's threads (new, rename, delete), the open thread's turns with their
 * rewritten queries and sources, and a message box whose follow-ups lean on the turns before. A
 * new thread can be kept to one collection.
 */
export function ChatView() {
  const { t, settings } = useApp()
  const [threads, setThreads] = useState<Conversation[]>([])
  const [open, setOpen] = useState<Conversation | null>(null)
  const [turns, setTurns] = useState<LiveTurn[]>([])
  const collections = useCollections()
  const [collection, setCollection] = useState('')
  const [message, setMessage] = useState('')
  const [error, setError] = useState<string | null>(null)
  const stops = useRef<(() => void)[]>([])
  useEffect(
    () => () => {
      for (const stop of stops.current) stop()
    },
    [],
  )

  const loadThreads = async () => {
    const { conversations } = await api.listConversations()
    setThreads(conversations)
    // The open thread as listed now (named after its first question once it has one).
    setOpen((current) => conversations.find((thread) => thread.id === current?.id) ?? current)
  }
  useEffect(() => {
    loadThreads().catch((failure) => setError(messageOf(failure)))
  }, [])

  const openThread = async (thread: Conversation) => {
    for (const stop of stops.current.splice(0)) stop()
    setOpen(thread)
    setTurns((await api.getConversation(thread.id)).turns.map(fromQuestion))
  }
  const guard = (action: () => Promise<void>) => () => {
    setError(null)
    action().catch((failure) => setError(messageOf(failure)))
  }
  const newThread = guard(async () => {
    const thread = await api.createConversation(collection || null)
    await loadThreads()
    await openThread(thread)
  })
  const rename = (thread: Conversation) =>
    guard(async () => {
      const title = prompt(t('chat.renamePrompt'), thread.title)?.trim()
      if (!title) return
      const renamed = await api.renameConversation(thread.id, title)
      if (open?.id === thread.id) setOpen(renamed)
      await loadThreads()
    })
  const remove = (thread: Conversation) =>
    guard(async () => {
      if (!confirm(t('chat.confirmDelete', { title: thread.title || t('chat.untitled') }))) return
      await api.deleteConversation(thread.id)
      if (open?.id === thread.id) {
        setOpen(null)
        setTurns([])
      }
      await loadThreads()
    })

  const update = (id: string, change: (turn: LiveTurn) => LiveTurn) =>
    setTurns((current) => current.map((turn) => (turn.id === id ? change(turn) : turn)))
  // A second press while the first is on its way (a slow machine shows nothing yet) is the same
  // question: without this it was asked twice, the first question of a new chat in two threads.
  const sending = useRef(false)
  const [busy, setBusy] = useState(false)
  const send = async (event: Event) => {
    event.preventDefault()
    if (sending.current) return
    setError(null)
    const text = message.trim()
    if (!text) return setError(t('ask.empty'))
    sending.current = true
    setBusy(true)
    try {
      const thread = open ?? (await api.createConversation(collection || null))
      if (!open) setOpen(thread)
      const { id } = await api.say(thread.id, text, askOptions(settings))
      setMessage('')
      setTurns((current) => [...current, { id, question: text, status: 'queued', answer: '', result: null }])
      stops.current.push(
        followAnswer(id, {
          status: (status) => update(id, (turn) => ({ ...turn, status })),
          provisional: (question) => update(id, (turn) => ({ ...turn, provisional: question })),
          queue: (queue) => update(id, (turn) => ({ ...turn, queue })),
          token: (piece) => update(id, (turn) => ({ ...turn, answer: turn.answer + piece })),
          restart: () => update(id, (turn) => ({ ...turn, answer: '' })),
          done: (final) => {
            update(id, () => fromQuestion(final))
            void loadThreads()
          },
          error: (reason) => setError(reason),
        }),
      )
      await loadThreads()
    } catch (failure) {
      setError(messageOf(failure))
    } finally {
      sending.current = false
      setBusy(false)
    }
  }

  return (
    <section class="chat">
      <aside class="threads">
        <CollectionSelect
          label={t('chat.collection')}
          allLabel={t('chat.allCollections')}
          collections={collections}
          value={collection}
          onChange={setCollection}
          testId="collection-picker"
        />
        <button type="button" data-testid="new-thread" onClick={newThread}>
          {t('chat.new')}
        </button>
        <ul data-testid="thread-list">
          {threads.map((thread) => (
            <li key={thread.id} data-thread-id={thread.id} class={thread.id === open?.id ? 'active' : ''}>
              <button type="button" class="link thread-title" onClick={guard(() => openThread(thread))}>
                {thread.title || t('chat.untitled')}
              </button>
              {thread.collection ? <span class="muted"> ({thread.collection})</span> : null}
              <button type="button" class="link" data-action="rename" onClick={rename(thread)}>
                {t('chat.rename')}
              </button>
              <button type="button" class="link" data-action="delete" onClick={remove(thread)}>
                {t('docs.delete')}
              </button>
            </li>
          ))}
        </ul>
      </aside>
      <div class="conversation">
        {open ? (
          <h2 data-testid="thread-title">
            {open.title || t('chat.untitled')}
            {open.collection ? <span class="muted"> ({open.collection})</span> : null}
          </h2>
        ) : null}
        <ol class="turns" data-testid="turns">
          {turns.map((turn, index) => (
            <ChatTurn key={turn.id} turn={turn} explainDegraded={saysSomethingNew(turns, index)} />
          ))}
        </ol>
        <ErrorMessage message={error} testId="chat-error" />
        <form class="chat-form" onSubmit={send}>
          <textarea
            rows={2}
            maxLength={MAX_QUESTION_CHARS}
            placeholder={t('chat.placeholder')}
            value={message}
            data-testid="chat-message"
            onInput={(event) => setMessage(event.currentTarget.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) void send(event)
            }}
          />
          <button type="submit" disabled={busy}>
            {t('chat.send')}
          </button>
        </form>
      </div>
    </section>
  )
}

/** What a finished turn had to do without, as one comparable value. */
const missing = (turn: LiveTurn | undefined) => [...(turn?.result?.degraded ?? [])].sort().join(',')

/**
 * Whether a turn's notice of what was missing says something the turn before did not: the same
 * notice under every answer of a conversation is said once, then marked quietly.
 */
export function saysSomethingNew(turns: LiveTurn[], index: number): boolean {
  return index === 0 || missing(turns[index]) !== missing(turns[index - 1])
}

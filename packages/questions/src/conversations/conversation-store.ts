import type { Pool } from '@rag/db'
import type { ConversationTurn } from '../question-store.ts'

export interface Conversation {
  id: string
  title: string
  collection: string | null
  turns: number
  createdAt: string
  updatedAt: string
}

/** Turns of a thread a new question carries: enough for follow-ups, bounded for the prompt. */
export const HISTORY_TURNS = 10
/** An earlier answer is kept at most this long in a later question's history. */
const HISTORY_ANSWER_CHARS = 2000

const COLUMNS = `c.id::text, c.title, c.collection, c.created_at AS "createdAt", c.updated_at AS "updatedAt",
  (SELECT count(*)::int FROM questions q WHERE q.conversation_id = c.id) AS turns`

export async function createConversation(
  pool: Pool,
  { id, owner, title, collection }: { id: string; owner: string; title: string; collection: string | null },
): Promise<Conversation> {
  await pool.query('INSERT INTO conversations (id, owner, title, collection) VALUES ($1, $2, $3, $4)', [
    id,
    owner,
    title,
    collection,
  ])
  return (await readConversation(pool, id, owner)) as Conversation
}

/** The owner's threads, the most recently used first. */
export async function listConversations(pool: Pool, owner: string, limit = 100): Promise<Conversation[]> {
  const { rows } = await pool.query<Conversation>(
    `SELECT ${COLUMNS} FROM conversations c WHERE c.owner = $1 ORDER BY c.updated_at DESC, c.id LIMIT $2`,
    [owner, limit],
  )
  return rows
}

/** A thread, when it exists and the owner made it (another key's thread is as good as absent). */
export async function readConversation(pool: Pool, id: string, owner: string): Promise<Conversation | null> {
  const { rows } = await pool.query<Conversation>(
    `SELECT ${COLUMNS} FROM conversations c WHERE c.id = $1 AND c.owner = $2`,
    [id, owner],
  )
  return rows[0] ?? null
}

export async function renameConversation(
  pool: Pool,
  id: string,
  owner: string,
  title: string,
): Promise<boolean> {
  const { rowCount } = await pool.query(
    'UPDATE conversations SET title = $3, updated_at = now() WHERE id = $1 AND owner = $2',
    [id, owner, title],
  )
  return (rowCount ?? 0) > 0
}

/** Deletes a thread with its turns. */
export async function deleteConversation(pool: Pool, id: string, owner: string): Promise<boolean> {
  const { rowCount } = await pool.query('DELETE FROM conversations WHERE id = $1 AND owner = $2', [id, owner])
  return (rowCount ?? 0) > 0
}

/** Marks the thread used (it moves to the top of the list), naming it after its first question. */
export async function touchConversation(pool: Pool, id: string, firstQuestion: string): Promise<void> {
  await pool.query(
    `UPDATE conversations SET updated_at = now(), title = CASE WHEN title = '' THEN $2 ELSE title END WHERE id = $1`,
    [id, firstQuestion.slice(0, 60)],
  )
}

/** The answered turns of a thread a new question follows, oldest first (the last HISTORY_TURNS). */
export async function conversationHistory(pool: Pool, id: string): Promise<ConversationTurn[]> {
  const { rows } = await pool.query<ConversationTurn>(
    `SELECT question, search_query AS "searchQuery", left(answer, $3) AS answer FROM (
       SELECT question, search_query, answer, created_at FROM questions
        WHERE conversation_id = $1 AND status = 'done' AND answer IS NOT NULL
        ORDER BY created_at DESC LIMIT $2) recent
      ORDER BY created_at`,
    [id, HISTORY_TURNS, HISTORY_ANSWER_CHARS],
  )
  return rows
}

/** Every question of a thread, oldest first, by id (read each with readQuestion). */
export async function conversationQuestionIds(pool: Pool, id: string): Promise<string[]> {
  const { rows } = await pool.query<{ id: string }>(
    'SELECT id::text FROM questions WHERE conversation_id = $1 ORDER BY created_at, id',
    [id],
  )
  return rows.map((row) => row.id)
}

import { expect, it } from 'vitest'
import type { LiveTurn } from './chat-turn.tsx'
import { saysSomethingNew } from './chat-view.tsx'

const turn = (degraded: string[]): LiveTurn =>
  ({
    id: String(Math.random()),
    question: 'q',
    status: 'done',
    answer: 'a',
    result: { degraded },
  }) as unknown as LiveTurn

it('explains what an answer did without once per conversation, and again only when it changes', () => {
  const turns = [
    turn(['vector', 'generate']),
    turn(['generate', 'vector']),
    turn(['generate']),
    turn(['generate']),
  ]
  expect(turns.map((_, index) => saysSomethingNew(turns, index))).toEqual([true, false, true, false])
})

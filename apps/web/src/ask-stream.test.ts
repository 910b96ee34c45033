import { describe, expect, it } from 'vitest'
import { type EventStream, followAnswer } from './ask-stream.ts'

/** A stand-in for the browser's EventSource that the test drives event by event. */
class ScriptedStream implements EventStream {
  readyState = 0
  closed = false
  private listeners = new Map<string, ((event: Event) => void)[]>()
  addEventListener(type: string, listener: (event: Event) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener])
  }
  close() {
    this.closed = true
    this.readyState = 2
  }
  emit(type: string, data?: unknown) {
    const event = Object.assign(new Event(type), { data: JSON.stringify(data ?? {}) })
    for (const listener of this.listeners.get(type) ?? []) listener(event)
  }
}

function follow() {
  const stream = new ScriptedStream()
  const seen = { answer: '', statuses: [] as string[], done: null as unknown, errors: [] as string[] }
  followAnswer(
    'q1',
    {
      status: (status) => seen.statuses.push(status),
      token: (text) => {
        seen.answer += text
      },
      restart: () => {
        seen.answer = ''
      },
      done: (question) => {
        seen.done = question
      },
      error: (message) => seen.errors.push(message),
    },
    () => stream,
  )
  return { stream, seen }
}

describe('followAnswer', () => {
  it('builds the answer from its tokens and stops at done', () => {
    const { stream, seen } = follow()
    stream.emit('open')
    stream.emit('status', { status: 'generating' })
    stream.emit('token', { text: '保証は' })
    stream.emit('token', { text: '2年間です' })
    stream.emit('done', { status: 'done', answer: '保証は2年間です' })
    expect(seen.answer).toBe('保証は2年間です')
    expect(seen.statuses).toEqual(['generating'])
    expect(seen.done).toMatchObject({ status: 'done' })
    expect(stream.closed).toBe(true)
  })

  it('keeps what was shown across a reconnect, where the server resumes after the last event', () => {
    const { stream, seen } = follow()
    stream.emit('open')
    stream.emit('token', { text: '保証は' })
    stream.emit('error')
    stream.emit('open')
    stream.emit('token', { text: '2年間です' })
    expect(seen.answer).toBe('保証は2年間です')
    expect(seen.errors).toEqual([])
  })

  it('starts over when a retry restarts the answer, and reports a stream the server closed', () => {
    const { stream, seen } = follow()
    stream.emit('open')
    stream.emit('token', { text: 'half an ans' })
    stream.emit('restart')
    stream.emit('token', { text: 'the answer' })
    expect(seen.answer).toBe('the answer')
    stream.readyState = 2
    stream.emit('error')
    expect(seen.errors).toEqual(['the answer stream was closed'])
  })
})

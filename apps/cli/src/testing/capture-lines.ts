import { Writable } from 'node:stream'

/** A stream that keeps the lines written to it. */
export function captureLines() {
  const lines: string[] = []
  const output = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean))
      done()
    },
  })
  return { lines, output }
}

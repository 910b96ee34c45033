import type { EvalProgress } from '@rag/evaluation'
import { Presets, SingleBar } from 'cli-progress'

/** A progress bar per phase on a terminal; otherwise a line at every tenth. */
export function progressReporter(stream: NodeJS.WriteStream): EvalProgress {
  let phase = ''
  let bar: SingleBar | undefined
  let lastTenth = -1
  return (name, done, total) => {
    if (name !== phase) {
      bar?.stop()
      phase = name
      lastTenth = -1
      if (stream.isTTY) {
        bar = new SingleBar(
          { format: ` {bar} {value}/{total} ${name}`, stream, hideCursor: true },
          Presets.shades_grey,
        )
        bar.start(total, done)
      }
    }
    if (bar) {
      bar.update(done)
      if (done >= total) bar.stop()
      return
    }
    const tenth = Math.floor((done / Math.max(total, 1)) * 10)
    if (tenth !== lastTenth) {
      lastTenth = tenth
      stream.write(`${name}: ${done}/${total}\n`)
    }
  }
}

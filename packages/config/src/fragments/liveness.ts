import { defineFragment } from '../define-config.ts'
import { text } from '../env-values.ts'

/** For processes without an HTTP port (workers, the watcher): a container's liveness signal. */
export const liveness = defineFragment({
  shape: {
    // A file the process touches every 10 s while it works and Redis answers (a container's liveness
    // signal, read by scripts/healthcheck.mjs); empty: none.
    LIVENESS_FILE: text(''),
  },
  read: (env) => ({ file: env.LIVENESS_FILE || null }),
})

#!/usr/bin/env node
// The container health check of every app in the image (Dockerfile HEALTHCHECK, compose). With a
// URL argument (the gateway's /healthz): healthy when it answers 200. Otherwise a worker or the
// watcher: healthy when its LIVENESS_FILE was touched in the last 45 s (it is every 10 s while the
// process works and Redis answers).
import { stat } from 'node:fs/promises'

const url = process.argv[2]
const file = process.env.LIVENESS_FILE
const fail = (why) => {
  console.error(`unhealthy: ${why}`)
  process.exit(1)
}
if (url) {
  const response = await fetch(url, { signal: AbortSignal.timeout(4000) }).catch((error) =>
    fail(error.message),
  )
  if (!response.ok) fail(`${url} answered ${response.status}`)
} else if (file) {
  const info = await stat(file).catch(() => fail(`${file} is missing (the worker has not started consuming)`))
  const age = (Date.now() - info.mtimeMs) / 1000
  if (age > 45) fail(`${file} is ${Math.round(age)} s old`)
}
// Neither set (a one-off command in the image): nothing to check.

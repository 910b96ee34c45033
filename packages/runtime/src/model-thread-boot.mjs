// Entry of a model thread: development runs the TypeScript sources under tsx, whose loader a worker
// thread does not inherit, so it is registered here before the model's module is imported.
import { workerData } from 'node:worker_threads'

if (workerData.entry.endsWith('.ts')) {
  const { register } = await import('tsx/esm/api')
  register()
}
await import(workerData.entry)

/**
 * SIGKILLs a supervised worker. Without a pid this throws: `process.kill(0)` would signal the
 * test runner's whole process group instead.
 */
export function killWorker(supervisor: { pid(name: string): number | undefined }, name: string): number {
  const pid = supervisor.pid(name)
  if (!pid || pid <= 0) throw new Error(`${name} is not running: nothing to kill`)
  process.kill(pid, 'SIGKILL')
  return pid
}

import type { ChildProcess } from 'node:child_process'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'

/**
 * Ends a supervisor a test started and every process it started: Ctrl-C first (it stops them in
 * order), and when it has not exited within `graceMs`, SIGKILL for each of its children (each in a
 * process group of its own, with whatever it started) and for it. A SIGKILL of the supervisor alone
 * would leave its workers running, retrying services the test has already stopped.
 */
export async function stopSupervisor(supervisor: ChildProcess | undefined, graceMs = 30_000): Promise<void> {
  if (!supervisor?.pid || supervisor.exitCode !== null || supervisor.signalCode !== null) return
  const exited = new Promise<void>((resolve) => supervisor.once('exit', () => resolve()))
  supervisor.kill('SIGINT')
  const timer = new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), graceMs).unref())
  if ((await Promise.race([exited, timer])) !== 'late') return
  const { stdout } = await promisify(execFile)('ps', ['-o', 'pid=', '--ppid', String(supervisor.pid)]).catch(
    () => ({
      stdout: '',
    }),
  )
  for (const pid of stdout
    .split('\n')
    .map((line) => Number(line.trim()))
    .filter((pid) => pid > 0)) {
    for (const target of [-pid, pid]) {
      try {
        process.kill(target, 'SIGKILL')
      } catch {
        // Already gone.
      }
    }
  }
  supervisor.kill('SIGKILL')
  await exited
}

/**
 * Tells the supervisor that started this process (over the IPC channel it opens) that it is up:
 * a process that dies before saying so crashed while starting (a bad setting, a missing service),
 * and the supervisor backs off its restarts however long the start took on a loaded machine.
 * Nothing happens when no supervisor started it.
 */
export function announceReady(): void {
  if (process.send && process.connected) process.send({ type: 'ready' })
}

/** Whether a message from a child is its announcement that it is up. */
export const isReadyMessage = (message: unknown): boolean =>
  typeof message === 'object' && message !== null && (message as { type?: unknown }).type === 'ready'

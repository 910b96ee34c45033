import { statfs } from 'node:fs/promises'

/** Whether a write failed for want of space (a full disk, or a quota). */
export const isDiskFull = (error: unknown) => {
  const code = (error as { code?: string } | null)?.code
  return code === 'ENOSPC' || code === 'EDQUOT'
}

/** Free bytes of the file system holding `folder`, or null when it cannot be read. */
export async function freeBytes(folder: string): Promise<number | null> {
  try {
    const stats = await statfs(folder)
    return stats.bavail * stats.bsize
  } catch {
    return null
  }
}

const megabytes = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MB`

/**
 * What a client is told when a file could not be stored: how much room is left in the upload
 * folder, never where that folder is on the server (the operator finds it in UPLOAD_DIR and /healthz).
 */
export async function diskFullMessage(folder: string, what: string): Promise<string> {
  const free = await freeBytes(folder)
  return `no space left on the server to store ${what}${free === null ? '' : ` (${megabytes(free)} free in the upload folder)`}: free some space or move UPLOAD_DIR, then send it again`
}

import { readFile } from 'node:fs/promises'

/** Why a file named on the command line cannot be read, in words (not `ENOENT: no such file…, open`). */
const REASONS: Record<string, string> = {
  ENOENT: 'no such file',
  EISDIR: 'is a folder, not a file',
  EACCES: 'not readable (permission denied)',
  EPERM: 'not readable (permission denied)',
}

/** A text file the user named (`what`: what it should hold, for the message), or an error saying why not. */
export async function readNamedFile(path: string, what: string): Promise<string> {
  try {
    return await readFile(path, 'utf8')
  } catch (error) {
    const reason = REASONS[(error as { code?: string }).code ?? '']
    if (reason) throw new Error(`${what} ${path}: ${reason}`)
    throw error
  }
}

import { readFile } from 'node:fs/promises'
import type { z } from 'zod'
import { DatasetError } from '../dataset.ts'

export async function readText(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    throw new DatasetError(code === 'ENOENT' ? `${path}: no such file` : `${path}: ${String(error)}`)
  }
}

/** Every non-empty line parsed and checked; the first bad one is reported with its line number. */
export async function readJsonLines<S extends z.ZodType>(path: string, schema: S): Promise<z.output<S>[]> {
  const rows: z.output<S>[] = []
  for (const [index, line] of (await readText(path)).split('\n').entries()) {
    if (line.trim() === '') continue
    let value: unknown
    try {
      value = JSON.parse(line)
    } catch {
      throw new DatasetError(`${path}:${index + 1}: not valid JSON`)
    }
    const parsed = schema.safeParse(value)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      throw new DatasetError(`${path}:${index + 1}: ${issue?.path.join('.') || 'line'}: ${issue?.message}`)
    }
    rows.push(parsed.data)
  }
  return rows
}

export async function readJson(path: string): Promise<unknown> {
  const text = await readText(path)
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new DatasetError(`${path}: not valid JSON (${error instanceof Error ? error.message : error})`)
  }
}

import { execFile } from 'node:child_process'
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { DocumentParseError } from './parsed-section.ts'

const run = promisify(execFile)

/** OCR of pages without a text layer and of images (OCR, OCR_LANGUAGES). */
export interface OcrOptions {
  mode: 'auto' | 'off'
  /** Tesseract's languages, e.g. jpn+eng. */
  languages: string
}

export const DEFAULT_OCR: OcrOptions = { mode: 'auto', languages: 'jpn+eng' }

/** A page takes at most this long to OCR (a 200 dpi A4 page in Japanese takes a few seconds). */
const PAGE_TIMEOUT_MS = 120_000
/** Resolution pages are rendered at for OCR: tesseract reads 200-300 dpi best. */
const DPI = 200
const INSTALL =
  'install tesseract with the languages in OCR_LANGUAGES and poppler (Debian/Ubuntu: apt-get install tesseract-ocr tesseract-ocr-jpn tesseract-ocr-eng poppler-utils), or set OCR=off'

function missing(error: unknown, what: string): DocumentParseError | null {
  const code = (error as { code?: string }).code
  if (code === 'ENOENT')
    return new DocumentParseError(
      `${what} needs OCR, and ${INSTALL.replace(', or set OCR=off', '')} (the command is not installed)`,
    )
  const stderr = String((error as { stderr?: string }).stderr ?? '')
  if (/Failed loading language|Error opening data file/.test(stderr))
    return new DocumentParseError(`${what} needs OCR in OCR_LANGUAGES, which tesseract lacks: ${INSTALL}`)
  return null
}

/** Japanese OCR puts spaces between characters: they are dropped between CJK characters. */
export function tidyOcrText(text: string): string {
  return text
    .replace(
      /([\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー、。，．「」（）])[ \t]+(?=[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー、。，．「」（）])/gu,
      '$1',
    )
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
}

/** Text of an image file by tesseract; `\f` separates the pages of a multi-page TIFF. */
export async function ocrImageFile(path: string, options: OcrOptions, what: string): Promise<string> {
  try {
    const { stdout } = await run('tesseract', [path, 'stdout', '-l', options.languages, '--psm', '3'], {
      timeout: PAGE_TIMEOUT_MS,
      maxBuffer: 64 * 1024 * 1024,
    })
    return stdout
  } catch (error) {
    throw missing(error, what) ?? new DocumentParseError(`OCR of ${what} failed: ${(error as Error).message}`)
  }
}

/** A scratch folder for the files OCR works on, removed afterwards whatever happens. */
export async function withScratch<T>(work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'rag-ocr-'))
  try {
    return await work(dir)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/**
 * Pages of a PDF read by OCR: each rendered to an image by poppler's pdftoppm, then read by
 * tesseract, one page at a time (bounded memory; the parse's time budget bounds the whole).
 */
export async function ocrPdfPages(
  data: Uint8Array,
  pages: number[],
  options: OcrOptions,
  /** Told after each page is read. */
  onPage?: () => void,
): Promise<Map<number, string>> {
  const texts = new Map<number, string>()
  if (pages.length === 0) return texts
  return withScratch(async (dir) => {
    const pdf = join(dir, 'document.pdf')
    await writeFile(pdf, data)
    for (const page of pages) {
      const prefix = join(dir, `page-${page}`)
      try {
        await run(
          'pdftoppm',
          ['-r', String(DPI), '-gray', '-png', '-f', String(page), '-l', String(page), pdf, prefix],
          {
            timeout: PAGE_TIMEOUT_MS,
          },
        )
      } catch (error) {
        throw (
          missing(error, `page ${page} has no text layer, so it`) ??
          new DocumentParseError(`page ${page} could not be rendered for OCR: ${(error as Error).message}`)
        )
      }
      const image = (await readdir(dir)).find(
        (name) => name.startsWith(`page-${page}-`) && name.endsWith('.png'),
      )
      if (!image) continue
      texts.set(
        page,
        tidyOcrText(await ocrImageFile(join(dir, image), options, `page ${page} has no text layer, so it`)),
      )
      await rm(join(dir, image), { force: true })
      onPage?.()
    }
    return texts
  })
}

import { createHash } from 'node:crypto'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { imageSize } from './image-size.ts'
import { type OcrReading, readingOfTsv, surer } from './ocr-reading.ts'
import { OcrToolError, runOcrTool } from './ocr-tool.ts'
import { DocumentParseError } from './parsed-section.ts'
import { SCRATCH_PREFIX } from './sandbox/scratch-folders.ts'

/** OCR of pages without a text layer and of images (OCR, OCR_LANGUAGES). */
export interface OcrOptions {
  mode: 'auto' | 'off'
  /** Tesseract's languages, e.g. jpn+eng. */
  languages: string
  /**
   * Where OCR's scratch files (a copy of the document, page images) go: in the sandbox, a folder
   * its parent owns and removes however the parse ends (default: the system's temp folder).
   */
  scratchDir?: string
  /** Memory each OCR helper (pdftoppm, tesseract) may take, in MiB: the parse's cap (PARSE_MEMORY_MB). */
  memoryMb?: number
  /**
   * PDF pages without a text layer are not read in the parse but handed back as `ocrPage`
   * sections, each read by an OCR job of its own (the ingestion pipeline's ocr step).
   */
  deferPdfPages?: boolean
  /** A page read with a lower mean confidence (0–100) is not taken (OCR_MIN_CONFIDENCE). */
  minConfidence?: number
}

/** What OCR read of a PDF page: its text, its paragraphs with their boxes (points), how sure it was. */
export interface PageReading {
  text: string
  paragraphs: { text: string; box: { x: number; y: number; width: number; height: number } }[]
  confidence: number
  direction: OcrReading['direction']
}

/** Below this confidence the horizontal reading of a Japanese page is tried again as vertical text. */
const TRY_VERTICAL_BELOW = 75

export const DEFAULT_OCR: OcrOptions = { mode: 'auto', languages: 'jpn+eng' }

/**
 * Text OCR has read before, by what was read: a page rendered to the same pixels and read with the
 * same settings reads the same (re-indexing a scanned book, or a new version of it with a few pages
 * changed, OCRs only the pages that changed). Keys name the image's SHA-256 and the settings.
 */
export interface OcrPageCache {
  get(key: string): Promise<string | null>
  set(key: string, text: string): Promise<void>
}

/** What an OCR result depends on besides the pixels: bumped when reading changes (tidying, models). */
const OCR_READING_VERSION = 'ocr-2'

/** A page takes at most this long to OCR (a 200 dpi A4 page in Japanese takes a few seconds). */
const PAGE_TIMEOUT_MS = 120_000
/** Resolution pages are rendered at for OCR: tesseract reads 200-300 dpi best. */
const DPI = 200
/** A page rendered smaller than this holds no readable text: such a page is refused, not rendered. */
const MIN_DPI = 50
/**
 * The most pixels one page or image is read with (A0 at 200 dpi is 62 million): what a page or
 * image declares is checked before anything is decoded, so a 100,000 × 100,000 picture is refused
 * from its header instead of taking gigabytes to render.
 */
export const MAX_OCR_PIXELS = 80_000_000
const INSTALL =
  'install tesseract with the languages in OCR_LANGUAGES and poppler (Debian/Ubuntu: apt-get install tesseract-ocr tesseract-ocr-jpn tesseract-ocr-eng poppler-utils libtiff-tools), or set OCR=off'

/** An OCR helper's failure as a reason about the file: never a command line or a temp path. */
function failure(error: unknown, what: string, options: OcrOptions): DocumentParseError {
  if (!(error instanceof OcrToolError)) return new DocumentParseError(`OCR of ${what} failed`)
  switch (error.reason) {
    case 'not installed':
      return new DocumentParseError(
        `${what} needs OCR, and ${INSTALL.replace(', or set OCR=off', '')} (${error.tool} is not installed)`,
      )
    case 'language missing':
      return new DocumentParseError(`${what} needs OCR in OCR_LANGUAGES, which tesseract lacks: ${INSTALL}`)
    case 'timed out':
      return new DocumentParseError(
        `OCR of ${what} took more than ${PAGE_TIMEOUT_MS / 1000} s, the limit for one page`,
      )
    case 'out of memory':
      return new DocumentParseError(
        `OCR of ${what} needs more than ${options.memoryMb ?? '?'} MiB of memory (PARSE_MEMORY_MB)`,
      )
    default:
      return new DocumentParseError(`OCR of ${what} failed: ${error.detail || 'the file could not be read'}`)
  }
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

/**
 * One page's picture read by tesseract, words with their boxes and confidences (TSV). A Japanese
 * page read with little confidence is read again with the vertical-writing model (jpn_vert, as one
 * block: psm 5) and the surer reading kept: a 縦書き page read horizontally is noise.
 */
export async function readPageImage(path: string, options: OcrOptions, what: string): Promise<OcrReading> {
  const read = async (languages: string, psm: number, direction: OcrReading['direction']) => {
    try {
      const tsv = await runOcrTool(
        'tesseract',
        [path, 'stdout', '-l', languages, '--psm', String(psm), 'tsv'],
        {
          memoryMb: options.memoryMb,
          timeoutMs: PAGE_TIMEOUT_MS,
          scratch: options.scratchDir,
        },
      )
      return readingOfTsv(tsv, direction)
    } catch (error) {
      throw failure(error, what, options)
    }
  }
  // psm 1: tesseract's orientation detection first (osd), so a sheet scanned upside down or on its
  // side is read the right way up; without the osd model it reads as psm 3 would.
  const horizontal = await read(options.languages, 1, 'horizontal')
  const languages = options.languages.split('+')
  if (horizontal.confidence >= TRY_VERTICAL_BELOW || !languages.includes('jpn')) return horizontal
  const vertical = await read(
    languages.map((language) => (language === 'jpn' ? 'jpn_vert' : language)).join('+'),
    5,
    'vertical',
  ).catch(
    // Without the vertical model installed, the horizontal reading is what there is.
    () => null,
  )
  return surer(horizontal, vertical)
}

/** The pages of a TIFF as single-page files (tiffsplit), in order; one for any other picture. */
async function imagePages(dir: string, path: string, options: OcrOptions): Promise<string[]> {
  if (!/\.tiff?$/i.test(path)) return [path]
  try {
    await runOcrTool('tiffsplit', [path, join(dir, 'page-')], {
      memoryMb: options.memoryMb,
      timeoutMs: PAGE_TIMEOUT_MS,
      scratch: dir,
    })
  } catch (error) {
    throw failure(error, 'the TIFF', options)
  }
  // tiffsplit names pages page-aaa.tif, page-aab.tif, …: their order is the pages'.
  return (await readdir(dir))
    .filter((name) => name.startsWith('page-') && name.endsWith('.tif'))
    .sort()
    .map((name) => join(dir, name))
}

/** One page of an image file as OCR read it: its text, how sure it was, and the model's direction. */
export interface ImagePageReading {
  text: string
  confidence: number
  direction: OcrReading['direction']
}

/**
 * Each page of an image file read (a multi-page TIFF page by page, split first, each page told to
 * `onPage`; PNG and JPEG are one page). Every page's declared size is checked before it is decoded.
 */
export async function ocrImagePages(
  data: Uint8Array,
  extension: string,
  options: OcrOptions,
  what: string,
  onPage?: () => void,
): Promise<ImagePageReading[]> {
  return withScratch(options.scratchDir, async (dir) => {
    const path = join(dir, `image${extension}`)
    await writeFile(path, data)
    const pages = await imagePages(dir, path, options)
    const readings: ImagePageReading[] = []
    for (const [index, page] of pages.entries()) {
      const label = pages.length > 1 ? `page ${index + 1} of ${what}` : what
      const size = await imageSize(page)
      if (size && size.width * size.height > MAX_OCR_PIXELS)
        throw new DocumentParseError(
          `${label} is ${size.width} × ${size.height} pixels; OCR reads pictures of at most ${MAX_OCR_PIXELS / 1_000_000} million pixels`,
        )
      // The same reading as a scanned PDF page's: a 縦書き picture is read again with the vertical model.
      const reading = await readPageImage(page, options, label)
      readings.push({
        text: reading.paragraphs
          .map((paragraph) => tidyOcrText(paragraph.text))
          .filter(Boolean)
          .join('\n\n'),
        confidence: reading.confidence,
        direction: reading.direction,
      })
      onPage?.()
    }
    return readings
  })
}

/** A scratch folder for the files OCR works on (under `parent`), removed afterwards whatever happens. */
export async function withScratch<T>(
  parent: string | undefined,
  work: (dir: string) => Promise<T>,
): Promise<T> {
  const dir = await mkdtemp(join(parent ?? tmpdir(), 'rag-ocr-'))
  try {
    return await work(dir)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/** A page's size in points (pdfinfo), or null when it cannot say. */
async function pageSize(pdf: string, page: number, options: OcrOptions) {
  const info = await runOcrTool('pdfinfo', ['-f', String(page), '-l', String(page), pdf], {
    memoryMb: options.memoryMb,
    timeoutMs: PAGE_TIMEOUT_MS,
    scratch: options.scratchDir,
  }).catch(() => '')
  const match = /Page\s+\d+\s+size:\s+([\d.]+)\s+x\s+([\d.]+)\s+pts/.exec(info)
  return match ? { width: Number(match[1]), height: Number(match[2]) } : null
}

/** The resolution a page is rendered at: 200 dpi, less for a page that would pass the pixel budget. */
function renderDpi(size: { width: number; height: number } | null, page: number): number {
  if (!size) return DPI
  const squareInches = (size.width / 72) * (size.height / 72)
  const dpi = Math.min(DPI, Math.floor(Math.sqrt(MAX_OCR_PIXELS / squareInches)))
  if (dpi < MIN_DPI)
    throw new DocumentParseError(
      `page ${page} is ${Math.round(size.width / 72)} × ${Math.round(size.height / 72)} inches; OCR reads pages of at most ${MAX_OCR_PIXELS / 1_000_000} million pixels at ${MIN_DPI} dpi or more`,
    )
  return dpi
}

/**
 * One page of a PDF read by OCR: rendered to an image by poppler's pdftoppm in `dir` (at 200 dpi,
 * less for a page so large it would pass the pixel budget), then read by tesseract, each helper
 * under the memory cap and the page's time limit. Empty when the page holds no text.
 */
export async function ocrPdfPage(
  pdf: string,
  page: number,
  dir: string,
  options: OcrOptions,
  cache?: OcrPageCache,
): Promise<PageReading> {
  const what = `page ${page} (it has no text layer)`
  const dpi = renderDpi(await pageSize(pdf, page, options), page)
  const prefix = join(dir, `page-${page}`)
  try {
    await runOcrTool(
      'pdftoppm',
      ['-r', String(dpi), '-gray', '-png', '-f', String(page), '-l', String(page), pdf, prefix],
      { memoryMb: options.memoryMb, timeoutMs: PAGE_TIMEOUT_MS, scratch: dir },
    )
  } catch (error) {
    throw failure(error, what, options)
  }
  const image = (await readdir(dir)).find((name) => name.startsWith(`page-${page}-`) && name.endsWith('.png'))
  if (!image) return { text: '', paragraphs: [], confidence: 0, direction: 'horizontal' }
  try {
    const key = cache
      ? `${createHash('sha256')
          .update(await readFile(join(dir, image)))
          .digest('hex')}:${options.languages}:${OCR_READING_VERSION}`
      : null
    const known = key ? await cache?.get(key) : null
    if (known !== null && known !== undefined) return JSON.parse(known) as PageReading
    const reading = await readPageImage(join(dir, image), options, what)
    // Pixels at `dpi` to the page's points.
    const points = 72 / dpi
    const paragraphs = reading.paragraphs
      .map(({ text, box }) => ({
        text: tidyOcrText(text),
        box: {
          x: Math.round(box.x * points * 10) / 10,
          y: Math.round(box.y * points * 10) / 10,
          width: Math.round(box.width * points * 10) / 10,
          height: Math.round(box.height * points * 10) / 10,
        },
      }))
      .filter((paragraph) => paragraph.text !== '')
    const result: PageReading = {
      text: paragraphs.map((paragraph) => paragraph.text).join('\n\n'),
      paragraphs,
      confidence: reading.confidence,
      direction: reading.direction,
    }
    if (key) await cache?.set(key, JSON.stringify(result))
    return result
  } finally {
    await rm(join(dir, image), { force: true })
  }
}

/**
 * Pages of a PDF read by OCR in the parse itself, one page at a time (bounded memory; the parse's
 * time budget bounds the whole). The ingestion pipeline reads them in OCR jobs instead
 * (`deferPdfPages`); this serves a parse on its own (a file parsed outside the pipeline).
 */
export async function ocrPdfPages(
  data: Uint8Array,
  pages: number[],
  options: OcrOptions,
  /** Told after each page is read. */
  onPage?: () => void,
): Promise<Map<number, PageReading>> {
  const texts = new Map<number, PageReading>()
  if (pages.length === 0) return texts
  return withScratch(options.scratchDir, async (dir) => {
    const pdf = join(dir, 'document.pdf')
    await writeFile(pdf, data)
    for (const page of pages) {
      texts.set(page, await ocrPdfPage(pdf, page, dir, options))
      onPage?.()
    }
    return texts
  })
}

/**
 * One page of a stored PDF read by OCR on its own (the pipeline's OCR job): its page image goes in
 * a scratch folder this process owns (removed afterwards, or by the next start if this process is
 * killed), the document itself is read where it is stored.
 */
export async function readScannedPdfPage(
  pdf: string,
  page: number,
  options: OcrOptions,
  cache?: OcrPageCache,
): Promise<PageReading> {
  const dir = await mkdtemp(join(options.scratchDir ?? tmpdir(), SCRATCH_PREFIX))
  try {
    return await ocrPdfPage(pdf, page, dir, { ...options, scratchDir: dir }, cache)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/** A page's size in points and the document's page count (pdfinfo), or null when it cannot say. */
export async function pdfPageInfo(
  pdf: string,
  page: number,
  options: Pick<OcrOptions, 'memoryMb'> = {},
): Promise<{ pages: number; width: number; height: number } | null> {
  const info = await runOcrTool('pdfinfo', ['-f', String(page), '-l', String(page), pdf], {
    memoryMb: options.memoryMb,
    timeoutMs: PAGE_TIMEOUT_MS,
  }).catch(() => '')
  const pages = Number(/^Pages:\s+(\d+)/m.exec(info)?.[1] ?? Number.NaN)
  const size = /Page\s+\d+\s+size:\s+([\d.]+)\s+x\s+([\d.]+)\s+pts/.exec(info)
  const rotation = Number(/Page\s+\d+\s+rot:\s+(\d+)/.exec(info)?.[1] ?? 0)
  if (!Number.isFinite(pages) || !size)
    return { pages: Number.isFinite(pages) ? pages : 0, width: 0, height: 0 }
  const [width, height] = [Number(size[1]), Number(size[2])]
  // A page turned a quarter shows its height as its width (as pdf.js and pdftoppm lay it out).
  return rotation % 180 === 90 ? { pages, width: height, height: width } : { pages, width, height }
}

/**
 * One page of a PDF as a PNG `width` pixels wide (pdftoppm, under the memory cap and the page's
 * time limit), written to `out`: what a viewer shows, with a cited passage's regions over it.
 */
export async function renderPdfPage(
  pdf: string,
  page: number,
  out: string,
  { width, memoryMb }: { width: number; memoryMb?: number },
): Promise<void> {
  const prefix = out.replace(/\.png$/, '')
  try {
    await runOcrTool(
      'pdftoppm',
      [
        '-png',
        '-singlefile',
        '-f',
        String(page),
        '-l',
        String(page),
        '-scale-to-x',
        String(width),
        '-scale-to-y',
        '-1',
        pdf,
        prefix,
      ],
      { memoryMb, timeoutMs: PAGE_TIMEOUT_MS },
    )
  } catch (error) {
    throw failure(error, `page ${page}`, { mode: 'auto', languages: '', ...(memoryMb ? { memoryMb } : {}) })
  }
}

import type { OcrDirection } from '@rag/api-contract/enums'

/** A box on the picture OCR read, in its pixels from the top-left. */
export interface PixelBox {
  x: number
  y: number
  width: number
  height: number
}

/** What OCR read of one picture: its paragraphs with their boxes, and how sure it was. */
export interface OcrReading {
  paragraphs: { text: string; box: PixelBox }[]
  /** Mean confidence (0–100) of the words read, weighted by their characters; 0 when nothing was read. */
  confidence: number
  /** Characters read. */
  chars: number
  /** The model that read it: horizontal (jpn) or vertical (jpn_vert). */
  direction: OcrDirection
}

/**
 * Tesseract's TSV (`tesseract … tsv`: level, page, block, paragraph, line, word, left, top,
 * width, height, confidence, text) as paragraphs: the words of each (block, paragraph), line by
 * line, with the box around them; and the confidence of the words that hold text.
 */
export function readingOfTsv(tsv: string, direction: OcrReading['direction']): OcrReading {
  const paragraphs = new Map<string, { lines: Map<number, string[]>; boxes: PixelBox[] }>()
  let weighted = 0
  let chars = 0
  for (const row of tsv.split('\n').slice(1)) {
    const cells = row.split('\t')
    if (cells.length < 12 || cells[0] !== '5') continue
    const text = (cells[11] ?? '').trim()
    const confidence = Number(cells[10])
    if (!text || !(confidence >= 0)) continue
    const key = `${cells[2]}.${cells[3]}`
    const paragraph = paragraphs.get(key) ?? { lines: new Map<number, string[]>(), boxes: [] as PixelBox[] }
    const line = Number(cells[4])
    paragraph.lines.set(line, [...(paragraph.lines.get(line) ?? []), text])
    paragraph.boxes.push({
      x: Number(cells[6]),
      y: Number(cells[7]),
      width: Number(cells[8]),
      height: Number(cells[9]),
    })
    paragraphs.set(key, paragraph)
    const length = [...text].length
    weighted += confidence * length
    chars += length
  }
  return {
    paragraphs: [...paragraphs.values()].map(({ lines, boxes }) => ({
      text: [...lines.values()].map(joinWords).join('\n'),
      box: pixelUnion(boxes),
    })),
    confidence: chars > 0 ? Math.round((weighted / chars) * 10) / 10 : 0,
    chars,
    direction,
  }
}

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー、。，．「」（）・：]/u

/** A line's words as text: a space between two words of Latin script or digits, none next to Japanese. */
function joinWords(words: string[]): string {
  let text = ''
  for (const word of words) {
    const apart = text !== '' && !CJK.test(text.at(-1) ?? '') && !CJK.test(word[0] ?? '')
    text += apart ? ` ${word}` : word
  }
  return text
}

function pixelUnion(boxes: PixelBox[]): PixelBox {
  const x0 = Math.min(...boxes.map((box) => box.x))
  const y0 = Math.min(...boxes.map((box) => box.y))
  const x1 = Math.max(...boxes.map((box) => box.x + box.width))
  const y1 = Math.max(...boxes.map((box) => box.y + box.height))
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 }
}

/** The reading to keep of two: the surer one (a vertical page read by the horizontal model is noise). */
export const surer = (a: OcrReading, b: OcrReading | null): OcrReading =>
  b && b.confidence > a.confidence ? b : a

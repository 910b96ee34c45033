import type { Pool, PoolClient } from '@rag/db'
import type { OcrPageReading, ParsedSection } from '@rag/parsers'
import type { DocumentVersion } from './document-version.ts'

type Queryable = Pick<Pool | PoolClient, 'query'>

/** How OCR read these pages of this version (a page read again replaces its reading). */
export async function recordOcrReadings(
  db: Queryable,
  { documentId, contentHash }: DocumentVersion,
  readings: OcrPageReading[],
) {
  if (readings.length === 0) return
  await db.query(
    `INSERT INTO ocr_readings (document_id, content_hash, page, confidence, direction)
     SELECT $1, $2, r.page, r.confidence, r.direction
       FROM jsonb_to_recordset($3::jsonb) AS r(page int, confidence real, direction text)
     ON CONFLICT (document_id, content_hash, page)
       DO UPDATE SET confidence = excluded.confidence, direction = excluded.direction`,
    [documentId, contentHash, JSON.stringify(readings)],
  )
}

/** The readings the sections of a part carry (a picture's pages, a scanned page read inline). */
export const readingsOf = (sections: ParsedSection[]): OcrPageReading[] =>
  sections.flatMap((section) => (section.ocrReading ? [section.ocrReading] : []))

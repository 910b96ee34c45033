import { readFile } from 'node:fs/promises'
import iconv from 'iconv-lite'
import PDFDocument from 'pdfkit'
import { describe, expect, it } from 'vitest'
import { detectSourceType } from './detect-source-type.ts'
import { parseDocument } from './parse-document.ts'
import { DocumentParseError, type ParsedSection } from './parsed-section.ts'
import { cleanPageText } from './text-cleanup.ts'

const sample = (name: string) => readFile(new URL(`../../../data/sample/${name}`, import.meta.url))

async function parse(data: Uint8Array, name: string): Promise<ParsedSection[]> {
  const type = detectSourceType(name)
  if (!type) throw new Error(`unsupported ${name}`)
  const sections: ParsedSection[] = []
  for await (const section of parseDocument(data, name, type)) sections.push(section)
  return sections
}

async function failure(data: Uint8Array, name: string): Promise<string> {
  const error = await parse(data, name).then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(DocumentParseError)
  return (error as Error).message
}

const utf8 = (text: string) => new TextEncoder().encode(text)

describe('the sample documents', () => {
  it('PDF: a section per page, cited as name.pdf:pN, under its heading, each paragraph with its box', async () => {
    const sections = await parse(await sample('lumina-guide.pdf'), 'lumina-guide.pdf')
    expect(sections.map((s) => s.sourceId)).toEqual([1, 2, 3, 4, 5].map((n) => `lumina-guide.pdf:p${n}`))
    expect(sections[3]?.heading).toBe('充電とバッテリー')
    expect(sections[3]?.units).toEqual([
      '充電とバッテリー',
      expect.stringContaining('満充電までの時間は約3時間です。'),
    ])
    // Each unit's place on its page, in points from the top-left of an A4 page.
    const [box] = sections[3]?.regions?.[1] ?? []
    expect(box).toMatchObject({ page: 4 })
    expect(box?.x).toBeGreaterThan(0)
    expect((box?.y ?? 0) + (box?.height ?? 0)).toBeLessThan(842)
  })

  it('CSV: one section per row as "column: value" lines, quoted newlines kept in their row', async () => {
    const sections = await parse(await sample('faq.csv'), 'faq.csv')
    expect(sections.map((s) => s.sourceId)).toEqual([1, 2, 3, 4, 5].map((n) => `faq.csv:r${n}`))
    expect(sections[2]?.units[0]).toBe(
      '質問: タイマー機能はありますか？\n回答: ファームウェア1.2以降で、30分後に自動で消灯するスリープタイマーが使えます。\nアプリから設定してください。\nカテゴリ: 機能',
    )
  })

  it('Markdown: a section for every heading with its heading path, code blocks whole, each table row with its column names', async () => {
    const sections = await parse(await sample('setup.md'), 'setup.md')
    expect(sections.map((s) => [s.sourceId, s.heading, s.lines])).toEqual([
      ['setup.md#ルミナ-アプリ-セットアップガイド', 'ルミナ アプリ セットアップガイド', { from: 1, to: 3 }],
      ['setup.md#動作環境', '動作環境', { from: 5, to: 7 }],
      ['setup.md#対応機種の確認', '動作環境 › 対応機種の確認', { from: 9, to: 11 }],
      ['setup.md#ペアリング', 'ペアリング', { from: 13, to: 16 }],
      ['setup.md#ペアリングできないとき', 'ペアリング › ペアリングできないとき', { from: 18, to: 25 }],
      ['setup.md#scheduling', 'Scheduling', { from: 27, to: 34 }],
      ['setup.md#scheduling:t1:r1', 'Scheduling', { from: 31, to: 31 }],
      ['setup.md#scheduling:t1:r2', 'Scheduling', { from: 32, to: 32 }],
    ])
    // A sub-section leads with its path, so its passages carry the words of the headings above it.
    expect(sections[4]?.units[0]).toMatch(/^ペアリング › ペアリングできないとき\n\n/)
    expect(sections[4]?.units[0]).toContain(
      '```text\nエラーコード E-21: Bluetooth がオフになっています\nエラーコード E-34',
    )
    expect(sections[6]).toMatchObject({
      heading: 'Scheduling',
      units: ['曜日: 平日 / 点灯: 7:00 / 消灯: 23:00'],
    })
    expect(sections[7]?.units).toEqual(['曜日: 休日 / 点灯: 9:00 / 消灯: 24:00'])
  })

  it('HTML: each table row a section with its caption and column names, spanning cells in every place they cover', async () => {
    const html = `<h2>料金</h2><table><caption>料金プラン一覧</caption>
      <thead><tr><th rowspan="2">プラン</th><th colspan="2">容量</th></tr><tr><th>ストレージ</th><th>転送</th></tr></thead>
      <tbody><tr><td>ベーシック</td><td rowspan="2">200GB</td><td>1TB</td></tr>
      <tr><td>ビジネス</td><td>5TB</td></tr>
      <tr><td>エンタープライズ</td><td>2TB</td><td>無制限</td></tr></tbody></table>`
    const rows = (await parse(utf8(html), 'plans.html')).filter((section) => section.table)
    expect(rows.map((section) => [section.sourceId, section.units])).toEqual([
      [
        'plans.html#料金:t1:r1',
        ['料金プラン一覧 — プラン: ベーシック / 容量 › ストレージ: 200GB / 容量 › 転送: 1TB'],
      ],
      [
        'plans.html#料金:t1:r2',
        ['料金プラン一覧 — プラン: ビジネス / 容量 › ストレージ: 200GB / 容量 › 転送: 5TB'],
      ],
      [
        'plans.html#料金:t1:r3',
        ['料金プラン一覧 — プラン: エンタープライズ / 容量 › ストレージ: 2TB / 容量 › 転送: 無制限'],
      ],
    ])
  })

  it('HTML: a section for every heading with its path, no scripts, styles, navigation or footer', async () => {
    const sections = await parse(await sample('store-info.html'), 'store-info.html')
    expect(sections.map((s) => [s.sourceId, s.heading])).toEqual([
      ['store-info.html#店舗情報', '店舗情報'],
      ['store-info.html#定休日', '店舗情報 › 定休日'],
      ['store-info.html#アクセス', 'アクセス'],
      ['store-info.html#shipping', 'アクセス › Shipping'],
    ])
    expect(sections[1]?.units).toEqual([
      '店舗情報 › 定休日\n\n毎週水曜日は定休日です。年末年始は12月31日から1月3日までお休みします。',
    ])
    const all = JSON.stringify(sections)
    for (const noise of ['tracking', 'font-family', 'カート', '©']) expect(all).not.toContain(noise)
  })

  it("HTML: a site's page is read for its main content, not its header, menus and sidebars", async () => {
    const chrome = `<header><a href="/">社内ポータル</a><ul><li>お知らせ</li><li>規程集</li></ul></header>
      <aside><h2>関連リンク</h2><ul><li>福利厚生の一覧</li></ul></aside>
      <div role="navigation"><a href="/a">前へ</a></div>`
    const marked = `<body>${chrome}<main><h1>出張旅費規程</h1><p>日当は1日3,000円とする。</p></main>
      <footer>© 2026</footer></body>`
    const text = (sections: ParsedSection[]) => sections.flatMap((section) => section.units).join('\n')
    const main = text(await parse(utf8(marked), 'travel.html'))
    expect(main).toContain('日当は1日3,000円とする。')
    for (const noise of ['社内ポータル', 'お知らせ', '関連リンク', '福利厚生', '前へ', '©'])
      expect(main).not.toContain(noise)
    // Unmarked: the body, still without its sidebar and navigation.
    const unmarked = text(
      await parse(
        utf8(`<body>${chrome}<h1>出張旅費規程</h1><p>日当は1日3,000円とする。</p></body>`),
        'travel.html',
      ),
    )
    expect(unmarked).toContain('日当は1日3,000円とする。')
    for (const noise of ['関連リンク', '福利厚生', '前へ']) expect(unmarked).not.toContain(noise)
  })

  it('Markdown and text: each section knows its lines, so a citation names them', async () => {
    const markdown = [
      '# Guide',
      '',
      'Intro.',
      '',
      '## Pairing',
      '',
      'Hold the button.',
      '',
      '### Trouble',
      '',
      'Move closer.',
      '',
      '| code | meaning |',
      '|---|---|',
      '| E-34 | paired elsewhere |',
    ].join('\n')
    const sections = await parse(utf8(markdown), 'guide.md')
    expect(sections.map((section) => [section.sourceId, section.lines])).toEqual([
      ['guide.md#guide', { from: 1, to: 3 }],
      ['guide.md#pairing', { from: 5, to: 7 }],
      ['guide.md#trouble', { from: 9, to: 11 }],
      ['guide.md#trouble:t1:r1', { from: 15, to: 15 }],
    ])
    const text = await parse(utf8('First paragraph\nstill first.\n\n\nSecond.\n'), 'notes.txt')
    expect(text.map((section) => [section.sourceId, section.lines])).toEqual([
      ['notes.txt:L1', { from: 1, to: 5 }],
    ])
  })

  it('DOCX: Word headings become sections', async () => {
    const sections = await parse(await sample('release-notes.docx'), 'release-notes.docx')
    expect(sections.map((s) => s.sourceId)).toEqual([
      'release-notes.docx#release-notes',
      'release-notes.docx#version-1-2',
      'release-notes.docx#bug-fixes',
      'release-notes.docx#version-1-1',
    ])
    expect(sections[2]).toMatchObject({
      heading: 'Version 1.2 › Bug fixes',
      units: ['Version 1.2 › Bug fixes\n\nFixes flickering at the lowest brightness level.'],
    })
  })
})

describe('other inputs', () => {
  it('reads Shift_JIS and BOM-prefixed UTF-8 CSV alike', async () => {
    const csv = '名前,説明\nルミナ,デスクライト\n'
    const fromSjis = await parse(iconv.encode(csv, 'Shift_JIS'), 'a.csv')
    const fromBom = await parse(new Uint8Array([0xef, 0xbb, 0xbf, ...utf8(csv)]), 'a.csv')
    expect(fromSjis).toEqual([
      { sourceId: 'a.csv:r1', heading: null, units: ['名前: ルミナ\n説明: デスクライト'] },
    ])
    expect(fromBom).toEqual(fromSjis)
  })

  it('plain text: paragraphs grouped, cited by starting line', async () => {
    const sections = await parse(utf8('first paragraph\nstill first\n\n\nsecond paragraph\n'), 'notes.txt')
    expect(sections).toEqual([
      {
        sourceId: 'notes.txt:L1',
        heading: null,
        units: ['first paragraph\nstill first', 'second paragraph'],
        lines: { from: 1, to: 5 },
      },
    ])
  })

  it('JSONL: one section per record, cited by the record id', async () => {
    const jsonl = '{"id":"doc-1","title":"One","text":"alpha"}\n\n{"id":2,"text":"beta"}\n'
    expect((await parse(utf8(jsonl), 'c.jsonl')).map((s) => [s.sourceId, s.heading, s.units[0]])).toEqual([
      ['doc-1', 'One', 'One\n\nalpha'],
      ['2', null, 'beta'],
    ])
  })

  it('cleans ligatures and end-of-line hyphenation from PDF text', () => {
    expect(cleanPageText('The ﬁrst conﬁg-\nuration   works\n\n\n\nnext')).toBe(
      'The first configuration works\n\nnext',
    )
  })
})

describe('bad files fail with a reason', () => {
  it('empty file', async () => {
    expect(await failure(new Uint8Array(), 'a.pdf')).toBe('the file is empty')
    expect(await failure(new Uint8Array(), 'a.csv')).toBe('the file is empty')
  })

  it('garbage named .pdf, and a truncated PDF', async () => {
    expect(await failure(utf8('hello, I am not a PDF'), 'fake.pdf')).toMatch(/not a PDF/)
    const pdf = await sample('lumina-guide.pdf')
    expect(await failure(pdf.subarray(0, Math.floor(pdf.length / 3)), 'cut.pdf')).toMatch(/PDF/)
  })

  it('a PDF without a text layer', async () => {
    const doc = new PDFDocument()
    const chunks: Buffer[] = []
    doc.on('data', (chunk: Buffer) => chunks.push(chunk))
    const ended = new Promise((resolve) => doc.on('end', resolve))
    doc.rect(50, 50, 200, 200).fill('#888')
    doc.end()
    await ended
    expect(await failure(Buffer.concat(chunks), 'scan.pdf')).toMatch(/no text layer/)
  })

  it('ragged CSV rows are read as they are: extra cells named by position, short rows kept', async () => {
    const sections = await parse(utf8('a,b\n1,2\n3,4,5\n## note ##\n'), 'ragged.csv')
    expect(sections.map((s) => s.units[0])).toEqual([
      'a: 1\nb: 2',
      'a: 3\nb: 4\ncolumn 3: 5',
      'a: ## note ##',
    ])
  })

  it('binary named .csv, and a malformed CSV with its line number', async () => {
    expect(await failure(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0, 0, 1, 2]), 'data.csv')).toMatch(
      /binary content/,
    )
    expect(await failure(utf8('a,b\n1,"unclosed\n'), 'bad.csv')).toMatch(/malformed CSV at line/)
  })

  it('a JSONL line that is not a record names its line', async () => {
    expect(await failure(utf8('{"id":"a","text":"x"}\n{oops}\n'), 'c.jsonl')).toMatch(/^line 2: not JSON/)
    expect(await failure(utf8('{"id":"a"}\n'), 'c.jsonl')).toMatch(/^line 1: text/)
  })

  it('a DOCX that is not a zip', async () => {
    expect(await failure(utf8('plain text pretending'), 'x.docx')).toMatch(/not a readable DOCX/)
  })

  it('unsupported types are recognised before parsing', () => {
    expect(detectSourceType('clip.mp4')).toBeNull()
    expect(detectSourceType('old.xls')).toBeNull()
    expect(detectSourceType('REPORT.PDF')).toBe('pdf')
    expect(detectSourceType('scan.TIFF')).toBe('image')
    expect(detectSourceType('book.xlsx')).toBe('xlsx')
    expect(detectSourceType('deck.pptx')).toBe('pptx')
  })
})

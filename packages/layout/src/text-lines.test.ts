import { describe, expect, it } from 'vitest'
import { pageBuilder } from './testing/page-builder.ts'
import { linesOf, withoutLetterSpacing } from './text-lines.ts'

const lineTexts = (page: ReturnType<ReturnType<typeof pageBuilder>['build']>) =>
  linesOf(page.runs).map((line) => line.text)

describe('spacing as written', () => {
  it('joins a letter-spaced Japanese line without the spaces its layout put between characters', () => {
    expect(withoutLetterSpacing('ご 予 約 は お 電 話 で 承 り ま す 。')).toBe('ご予約はお電話で承ります。')
    expect(withoutLetterSpacing('受 付 は 午 前 1 1 時 か ら')).toBe('受付は午前11時から')
  })

  it('keeps real spaces in a line that is not letter-spaced', () => {
    expect(withoutLetterSpacing('第1章 総則')).toBe('第1章 総則')
    expect(withoutLetterSpacing('Wi-Fi の設定 と Bluetooth の設定')).toBe('Wi-Fi の設定 と Bluetooth の設定')
    expect(withoutLetterSpacing('The quick brown fox')).toBe('The quick brown fox')
  })

  it('reads a justified line drawn glyph by glyph as its words, digits beside kana included', () => {
    // Each glyph placed alone with the wider gaps justification gives them (0.3 em).
    const page = pageBuilder()
    let x = 50
    for (const glyph of ['午', '前', '11', '時', 'か', 'ら', '受', '付']) {
      page.text(x, 100, glyph)
      x += (glyph === '11' ? 10 : 10) + 3
    }
    expect(lineTexts(page.build())).toEqual(['午前11時から受付'])
  })

  it('still spaces Latin words drawn apart, and a wide gap between Japanese and Latin', () => {
    const page = pageBuilder()
      .text(50, 100, 'USB')
      .text(68, 100, 'Type-C')
      .text(101, 100, '対応')
      .text(127, 100, 'model')
    expect(lineTexts(page.build())).toEqual(['USB Type-C対応 model'])
  })
})

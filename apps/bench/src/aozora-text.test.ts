import { describe, expect, it } from 'vitest'
import { aozoraParagraphs, readAozoraFile } from './aozora-text.ts'

const SAMPLE = [
  '広島という名の由来',
  '薄田太郎',
  '',
  '-------------------------------------------------------',
  '【テキスト中に現れる記号について】',
  '',
  '《》：ルビ',
  '（例）床几《しょうぎ》',
  '-------------------------------------------------------',
  '',
  '［＃１字下げ］輝元の築城［＃「輝元の築城」は中見出し］',
  '　広島城のことを鯉城《りじょう》というが、｜己斐の浦《こいのうら》に臨んでいた。',
  '　箱島※［＃「土へん＋竒」、第3水準1-15-58］の庄の五つ。',
  '',
  '底本：「ひろしま今昔」広島市',
  '入力：某',
].join('\r\n')

describe('Aozora Bunko text read as prose', () => {
  it('drops the header, the notation block, the footer, ruby readings and annotations', () => {
    expect(aozoraParagraphs(SAMPLE)).toEqual([
      '輝元の築城',
      '広島城のことを鯉城というが、己斐の浦に臨んでいた。',
      '箱島の庄の五つ。',
    ])
  })

  it('takes the title lines as the header when there is no notation block', () => {
    expect(aozoraParagraphs('題名\n作者\n\n本文の一行目。\n本文の二行目。\n底本：某')).toEqual([
      '本文の一行目。',
      '本文の二行目。',
    ])
  })

  it('decodes Shift_JIS, and refuses a file that is not', () => {
    const shiftJis = new Uint8Array([0x8c, 0xa9, 0x0a, 0x0a, 0x93, 0xfa, 0x96, 0x7b]) // 見\n\n日本
    expect(readAozoraFile(shiftJis)).toEqual(['日本'])
    expect(readAozoraFile(new Uint8Array([0x82, 0xff, 0xfd, 0x0a]))).toBeNull()
  })
})

import { describe, expect, it } from 'vitest'
import { readableUrl } from './readable-url.ts'

describe('readableUrl', () => {
  it('shows a Japanese path, query and fragment as letters', () => {
    const href = new URL('https://intranet.example.com/規程集/出張旅費.html?版=2#日当').href
    expect(href).toContain('%E8%A6%8F')
    expect(readableUrl(href)).toBe('https://intranet.example.com/規程集/出張旅費.html?版=2#日当')
  })

  it('shows an international domain as letters', () => {
    expect(readableUrl(new URL('https://社内.example/a').href)).toBe('https://社内.example/a')
  })

  it('keeps ASCII escapes, so that two addresses never read alike', () => {
    expect(readableUrl('https://example.com/a%2Fb/100%25/%E5%87%BA%20%E5%BC%B5.html')).toBe(
      'https://example.com/a%2Fb/100%25/出%20張.html',
    )
    expect(readableUrl('https://example.com/a/b.html')).toBe('https://example.com/a/b.html')
  })

  it('keeps escapes that are not UTF-8 text (a Shift_JIS path) or are invisible', () => {
    expect(readableUrl('https://example.com/%8F%6F%92%A3.html')).toBe('https://example.com/%8F%6F%92%A3.html')
    expect(readableUrl('https://example.com/a%E2%80%8Bb')).toBe('https://example.com/a%E2%80%8Bb')
  })

  it('leaves what is not a URL as it is', () => {
    expect(readableUrl('not a url')).toBe('not a url')
  })
})

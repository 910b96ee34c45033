import { describe, expect, it } from 'vitest'
import { safeFilename, safeRelativePath, uploadedName } from './register-document.ts'

describe('file names as uploaded', () => {
  it('a name past 255 characters is shortened in its stem and keeps its extension', () => {
    const name = safeFilename(`${'長'.repeat(300)}.txt`)
    expect(name).toHaveLength(255)
    expect(name.endsWith('.txt')).toBe(true)
  })
  it('bidirectional controls that disguise the extension are removed', () => {
    expect(safeFilename('invoice\u202Efdp.exe')).toBe('invoicefdp.exe')
  })
  it('paths are cut to their last segment, or kept relative and clean with keepPath', () => {
    expect(safeFilename('../../etc/passwd')).toBe('passwd')
    expect(safeRelativePath('a/README.md')).toBe('a/README.md')
    expect(() => safeRelativePath('../x.md')).toThrow(/invalid path/)
  })
  it('an upload keeps a relative path from a folder, and cuts anything that climbs or is absolute', () => {
    expect(uploadedName('a/README.md')).toBe('a/README.md')
    expect(uploadedName('b\\README.md')).toBe('b/README.md')
    expect(uploadedName('../../etc/passwd')).toBe('passwd')
    expect(uploadedName('/etc/passwd')).toBe('passwd')
    expect(uploadedName('C:\\Users\\me\\x.pdf')).toBe('x.pdf')
  })
})

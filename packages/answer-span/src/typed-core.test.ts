import { describe, expect, it } from 'vitest'
import { typedCore } from './typed-core.ts'

describe('the value of the kind asked, inside a span', () => {
  it('cuts a date out of the noun phrase it stands in', () => {
    expect(typedCore('1871 municipal charter', 'date')).toBe('1871')
    expect(typedCore('its 1964 relocation', 'date')).toBe('1964')
    expect(typedCore('the treaty of 3 September 1783', 'date')).toBe('3 September 1783')
    expect(typedCore('the spring of 1889', 'date')).toBe('spring of 1889')
    expect(typedCore('late 19th century revival', 'date')).toBe('late 19th century')
  })

  it('cuts a number out, keeping its currency and scale', () => {
    expect(typedCore('$1.2 billion stadium', 'money')).toBe('$1.2 billion')
    expect(typedCore('12,000 residents', 'number')).toBe('12,000')
  })

  it('leaves a span alone when it holds no such value, or another kind is asked', () => {
    expect(typedCore('the annual fair', 'date')).toBe('the annual fair')
    expect(typedCore('1871 municipal charter', 'thing')).toBe('1871 municipal charter')
    // A Japanese span is already the value with what belongs to it.
    expect(typedCore('2年間', 'date')).toBe('2年間')
  })
})

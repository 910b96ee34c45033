import { imageSizeFromFile } from 'image-size/fromFile'

/**
 * The width and height a picture declares in its header (PNG, JPEG, TIFF, …), read without
 * decoding it; null when the header says nothing usable (OCR then finds out for itself).
 */
export async function imageSize(path: string): Promise<{ width: number; height: number } | null> {
  try {
    const { width, height } = await imageSizeFromFile(path)
    return width && height ? { width, height } : null
  } catch {
    return null
  }
}

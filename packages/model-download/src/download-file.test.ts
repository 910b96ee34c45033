import { createHash, randomBytes } from 'node:crypto'
import { access, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { ChecksumError, downloadFile, MissingFileError } from './download-file.ts'
import { serveModelHub } from './testing/model-hub.ts'
import { ensureTransformersModel } from './transformers-model.ts'

// Against a hub served on loopback: what a user with a flaky connection or a bad mirror meets.

let hubDir: string
let target: string
const weights = randomBytes(3 * 1024 * 1024)
const sha256 = createHash('sha256').update(weights).digest('hex')

beforeEach(async () => {
  hubDir = await mkdtemp(join(tmpdir(), 'rag-dl-hub-'))
  target = await mkdtemp(join(tmpdir(), 'rag-dl-models-'))
  const model = join(hubDir, 'org/model')
  await mkdir(join(model, 'onnx'), { recursive: true })
  await writeFile(join(model, 'onnx/model_quantized.onnx'), weights)
  for (const file of ['config.json', 'tokenizer.json', 'tokenizer_config.json'])
    await writeFile(join(model, file), `{"file":"${file}"}`)
})
afterEach(async () => {
  await rm(hubDir, { recursive: true, force: true })
  await rm(target, { recursive: true, force: true })
})

it('a download cut halfway resumes from where it stopped, and the file is whole', async () => {
  const hub = await serveModelHub(hubDir, { cut: { suffix: 'model_quantized.onnx', bytes: 1024 * 1024 } })
  try {
    const url = `${hub.endpoint}org/model/resolve/main/onnx/model_quantized.onnx`
    const destination = join(target, 'model_quantized.onnx')
    await expect(downloadFile({ url, destination })).rejects.toThrow()
    // What arrived before the cut is kept (how much of the 1 MiB sent got through varies).
    const kept = (await stat(`${destination}.part`)).size
    expect(kept).toBeGreaterThan(0)
    expect(kept).toBeLessThan(weights.length)

    const result = await downloadFile({ url, destination })
    expect(result).toEqual({ sha256, resumed: true })
    expect(hub.requested.at(-1)).toMatch(new RegExp(`bytes=${kept}-$`))
    expect((await readFile(destination)).equals(weights)).toBe(true)
    await expect(access(`${destination}.part`)).rejects.toThrow()
  } finally {
    await hub.close()
  }
})

it('bytes that do not match the pinned sha256 are refused with a clear error and deleted', async () => {
  const hub = await serveModelHub(hubDir)
  try {
    const destination = join(target, 'model_quantized.onnx')
    const download = downloadFile({
      url: `${hub.endpoint}org/model/resolve/main/onnx/model_quantized.onnx`,
      destination,
      sha256: '0'.repeat(64),
    })
    await expect(download).rejects.toThrow(ChecksumError)
    await expect(download).rejects.toThrow(
      /sha256 [0-9a-f]{64} but the registry pins 0{64}; the download was deleted/,
    )
    await expect(access(destination)).rejects.toThrow()
    await expect(access(`${destination}.part`)).rejects.toThrow()
  } finally {
    await hub.close()
  }
})

it('a file the hub does not have is a MissingFileError naming the URL', async () => {
  const hub = await serveModelHub(hubDir)
  try {
    await expect(
      downloadFile({
        url: `${hub.endpoint}org/nothing/resolve/main/config.json`,
        destination: join(target, 'x'),
      }),
    ).rejects.toThrow(MissingFileError)
  } finally {
    await hub.close()
  }
})

it('processes starting together download each file once; the others wait and use it', async () => {
  const hub = await serveModelHub(hubDir)
  try {
    const ensure = () =>
      ensureTransformersModel({ modelsDir: target, model: 'org/model', dtype: 'q8', endpoint: hub.endpoint })
    const results = await Promise.all([ensure(), ensure(), ensure()])
    const weightRequests = hub.requested.filter((path) =>
      path.endsWith('resolve/main/onnx/model_quantized.onnx'),
    )
    expect(weightRequests).toHaveLength(1)
    expect(results.filter((fetched) => fetched.length > 0)).toHaveLength(1)
    expect((await readFile(join(target, 'org/model/onnx/model_quantized.onnx'))).equals(weights)).toBe(true)
  } finally {
    await hub.close()
  }
})

it('checks the hash the hub puts on its redirect to the CDN: other bytes from the CDN are refused', async () => {
  const hub = await serveModelHub(hubDir, { tamper: 'model_quantized.onnx' })
  try {
    const url = `${hub.endpoint}org/model/resolve/main/onnx/model_quantized.onnx`
    const download = downloadFile({ url, destination: join(target, 'model_quantized.onnx') })
    await expect(download).rejects.toThrow(
      new RegExp(`but the hub reports ${sha256}; the download was deleted`),
    )
    expect(hub.requested).toEqual([
      '/org/model/resolve/main/onnx/model_quantized.onnx',
      '/cdn/org/model/onnx/model_quantized.onnx',
    ])
  } finally {
    await hub.close()
  }
})

it('names the host it could not reach, and what to check', async () => {
  const hub = await serveModelHub(hubDir)
  const endpoint = hub.endpoint
  await hub.close()
  await expect(
    downloadFile({ url: `${endpoint}org/model/resolve/main/config.json`, destination: join(target, 'x') }),
  ).rejects.toThrow(
    /config\.json: cannot reach 127\.0\.0\.1:\d+ \(ECONNREFUSED\); is the hub \(or MODEL_ENDPOINT\) reachable/,
  )
})

it('fetches what a repository without ONNX weights has, and names the export step for the rest', async () => {
  const model = join(hubDir, 'cl-nagoya/ruri-v3-30m')
  await mkdir(model, { recursive: true })
  for (const file of ['config.json', 'tokenizer.json', 'tokenizer_config.json'])
    await writeFile(join(model, file), '{}')
  const hub = await serveModelHub(hubDir)
  try {
    const ensure = ensureTransformersModel({
      modelsDir: target,
      model: 'cl-nagoya/ruri-v3-30m',
      dtype: 'fp32',
      endpoint: hub.endpoint,
    })
    await expect(ensure).rejects.toThrow(
      /ruri-v3-30m publishes no ONNX weights .*optimum-cli export onnx --model cl-nagoya\/ruri-v3-30m --task feature-extraction/,
    )
    expect(hub.requested.some((path) => path.includes('onnx/'))).toBe(false)
    await expect(access(join(target, 'cl-nagoya/ruri-v3-30m/tokenizer.json'))).resolves.toBeUndefined()
  } finally {
    await hub.close()
  }
})

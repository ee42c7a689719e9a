import { readFile, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { downloadFile } from '../../../src/main/models/download'
import { rememberedBandwidth } from '../../../src/main/models/machineProfile'
import { tempDirs } from '../../support/tempDir'

const dirs = tempDirs('bureau-download-words-')

/** A port on 127.0.0.1 that nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  await new Promise<void>((resolve) => server.close(() => resolve()))
  if (typeof address !== 'object' || address === null) throw new Error('no port')
  return address.port
}

describe('a download that cannot start says why in words', () => {
  it('a refused connection names the server and the cause, not "fetch failed"', async () => {
    const dir = await dirs.make()
    const port = await closedPort()
    const failure = downloadFile({
      url: `http://127.0.0.1:${port}/model.gguf`,
      target: join(dir, 'model.gguf'),
      maxResumes: 0,
    })
    await expect(failure).rejects.toThrow(
      `Could not download from 127.0.0.1:${port}: the server refused the connection (ECONNREFUSED). Try again`,
    )
    await expect(failure).rejects.not.toThrow(/fetch failed/)
  })
})

describe('the memory bandwidth behind the speed estimate', () => {
  it('keeps the best measurement of this computer, so a busy moment does not lower the estimate', async () => {
    const file = join(await dirs.make(), 'machine.json')
    expect(await rememberedBandwidth(file, 5e9)).toBe(5e9)
    expect(await rememberedBandwidth(file, 20e9)).toBe(20e9)
    // Measured while the machine was busy: the stored figure stands.
    expect(await rememberedBandwidth(file, 4e9)).toBe(20e9)
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ memoryBandwidth: 20e9 })
  })

  it('a damaged file is replaced by the new measurement', async () => {
    const file = join(await dirs.make(), 'machine.json')
    await writeFile(file, '{"memoryBandwidth": "fast"')
    expect(await rememberedBandwidth(file, 7e9)).toBe(7e9)
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ memoryBandwidth: 7e9 })
  })
})

import { Readable, Transform } from 'node:stream'
import busboy from 'busboy'
import { bridgeErrors } from '../errors'
import type { FileStore, ReceivedUpload } from './fileStore'

/** Room for the multipart framing and the small fields around the file itself. */
export const MULTIPART_OVERHEAD = 64 * 1024

export interface MultipartUpload {
  upload: ReceivedUpload
  filename: string
  mimeType: string
  fields: Record<string, string>
}

const unreadable = () => bridgeErrors.invalid('The multipart body could not be read.')

/**
 * Reads a multipart upload as it arrives: the part named `file` streams into the store (never whole in
 * memory), small text fields are collected, any other file part is skipped. The body may be at most
 * `maxFileBytes` plus the framing; past that, or past the file limit or the storage quota, reading
 * stops at once with the 413 (the caller closes the connection) and nothing is kept.
 */
export function receiveMultipart(
  request: Request,
  store: FileStore,
  maxFileBytes: number,
): Promise<MultipartUpload> {
  const contentType = request.headers.get('content-type') ?? ''
  if (!request.body) return Promise.reject(unreadable())
  let parser: busboy.Busboy
  try {
    parser = busboy({
      headers: { 'content-type': contentType },
      limits: { files: 1, fields: 16, fieldSize: 4096, fieldNameSize: 100, parts: 32, headerPairs: 32 },
    })
  } catch {
    return Promise.reject(unreadable())
  }
  const source = Readable.fromWeb(request.body as import('node:stream/web').ReadableStream<Uint8Array>)
  const maxBody = maxFileBytes + MULTIPART_OVERHEAD
  const length = Number(request.headers.get('content-length') ?? Number.NaN)
  // The file is nearly all of the body: room for it is held before its first byte is written.
  const declared = Number.isSafeInteger(length) ? length : undefined
  let seen = 0
  return new Promise<MultipartUpload>((resolve, reject) => {
    const fields: Record<string, string> = {}
    let received: Promise<ReceivedUpload> | undefined
    let fileStream: Readable | undefined
    let fileInfo: { filename: string; mimeType: string } | undefined
    let failed = false

    const fail = (error: unknown) => {
      if (failed) return
      failed = true
      // Stop reading the request; what was received so far is given back.
      source.unpipe(counter)
      source.pause()
      fileStream?.destroy()
      // Answer once the partial file is gone, so nothing of a refused upload outlives its answer.
      const settled = received?.then(
        (upload) => upload.discard(),
        () => undefined,
      )
      void Promise.resolve(settled).then(() => reject(error))
    }
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        seen += chunk.byteLength
        if (seen > maxBody) {
          fail(bridgeErrors.fileTooLarge(maxFileBytes))
          return callback()
        }
        callback(null, chunk)
      },
    })

    parser.on('file', (name, stream, info) => {
      if (name !== 'file' || received) {
        stream.resume()
        return
      }
      fileStream = stream
      fileInfo = { filename: info.filename ?? 'file', mimeType: info.mimeType }
      received = store.receive(stream, maxFileBytes, declared)
      received.catch((error: unknown) => {
        stream.resume()
        fail(error)
      })
    })
    parser.on('field', (name, value) => {
      fields[name] = value
    })
    parser.on('error', () => fail(unreadable()))
    parser.on('close', () => {
      if (failed) return
      if (!received || !fileInfo) {
        failed = true
        reject(bridgeErrors.invalid('Missing the file: send it in the field "file".', 'file'))
        return
      }
      const info = fileInfo
      received.then(
        (upload) => {
          if (failed) return void upload.discard()
          resolve({ upload, filename: info.filename, mimeType: info.mimeType, fields })
        },
        (error: unknown) => fail(error),
      )
    })
    source.on('error', () => fail(unreadable()))
    source.pipe(counter).pipe(parser)
  })
}

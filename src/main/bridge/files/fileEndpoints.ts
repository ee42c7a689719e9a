import type { Hono } from 'hono'
import { z } from 'zod'
import { BridgeError, bridgeErrors, errorResponse } from '../errors'
import type { BridgeLimits } from '../limits/bridgeLimits'
import type { BridgeEnv } from '../types'
import { type FileStore, fileObject } from './fileStore'
import { MULTIPART_OVERHEAD, type MultipartUpload, receiveMultipart } from './receiveMultipart'

/** Purposes the OpenAI API accepts for uploads; every one works here as a chat attachment. */
export const UPLOAD_PURPOSES = ['assistants', 'batch', 'fine-tune', 'vision', 'user_data', 'evals'] as const

const ListQuery = z.object({
  purpose: z.string().optional(),
  order: z.enum(['asc', 'desc']).default('desc'),
  limit: z.coerce.number().int().min(1).max(10_000).default(10_000),
  after: z.string().optional(),
})

function attachmentHeader(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_')
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`
}

/** `/v1/files`: multipart upload, list, retrieve, content, delete. A token sees only its own files. */
export function mountFileEndpoints(
  bridge: Hono<BridgeEnv>,
  store: FileStore,
  limits: () => BridgeLimits,
): void {
  bridge.post('/files', async (c) => {
    if (!c.req.header('content-type')?.toLowerCase().startsWith('multipart/form-data'))
      return errorResponse(
        c,
        bridgeErrors.invalid('Upload files as multipart/form-data with the fields "file" and "purpose".'),
      )
    const limit = limits().maxFileBytes
    const tooLarge = (error: BridgeError) => {
      // The rest of the body is not read: the client must not reuse this connection.
      c.header('connection', 'close')
      return errorResponse(c, error)
    }
    const declared = Number(c.req.header('content-length') ?? Number.NaN)
    if (declared > limit + MULTIPART_OVERHEAD) return tooLarge(bridgeErrors.fileTooLarge(limit))
    let parsed: MultipartUpload
    try {
      parsed = await receiveMultipart(c.req.raw, store, limit)
    } catch (error) {
      if (error instanceof BridgeError && error.status === 413) return tooLarge(error)
      throw error
    }
    const { upload, filename, mimeType, fields } = parsed
    const purpose = fields.purpose
    if (purpose === undefined || !(UPLOAD_PURPOSES as readonly string[]).includes(purpose)) {
      await upload.discard()
      return errorResponse(
        c,
        bridgeErrors.invalid(`"purpose" must be one of: ${UPLOAD_PURPOSES.join(', ')}.`, 'purpose'),
      )
    }
    const type = mimeType.split(';')[0]?.trim()
    const stored = await upload.commit({
      filename,
      purpose,
      owner: c.get('tokenName'),
      ...(type && type !== 'application/octet-stream' ? { mimeType } : {}),
    })
    return c.json(fileObject(stored))
  })

  bridge.get('/files', async (c) => {
    const query = ListQuery.safeParse(c.req.query())
    if (!query.success) {
      const issue = query.error.issues[0]
      return errorResponse(
        c,
        bridgeErrors.invalid(
          `Invalid query: ${issue?.message ?? 'bad value'}.`,
          String(issue?.path[0] ?? ''),
        ),
      )
    }
    const { data, hasMore } = await store.list(c.get('tokenName'), query.data)
    return c.json({
      object: 'list',
      data: data.map(fileObject),
      first_id: data[0]?.id ?? null,
      last_id: data.at(-1)?.id ?? null,
      has_more: hasMore,
    })
  })

  bridge.get('/files/:id', async (c) =>
    c.json(fileObject(await store.get(c.get('tokenName'), c.req.param('id')))),
  )

  bridge.get('/files/:id/content', async (c) => {
    const { file, body } = await store.stream(c.get('tokenName'), c.req.param('id'))
    return c.body(body, 200, {
      'content-type': file.mime_type,
      'content-length': String(file.bytes),
      'content-disposition': attachmentHeader(file.filename),
      'x-content-type-options': 'nosniff',
      // Served on the UI's origin: never let a browser run an uploaded HTML or SVG file.
      'content-security-policy': "default-src 'none'; sandbox",
    })
  })

  bridge.delete('/files/:id', async (c) => {
    const id = c.req.param('id')
    await store.delete(c.get('tokenName'), id)
    return c.json({ id, object: 'file', deleted: true })
  })
}

import type { Hono } from 'hono'
import { z } from 'zod'
import { bridgeErrors, errorResponse } from '../errors'
import type { BridgeLimits } from '../limits/bridgeLimits'
import { limitBody } from '../limits/limitBody'
import type { BridgeEnv } from '../types'
import { type FileStore, fileObject } from './fileStore'

/** Purposes the OpenAI API accepts for uploads; every one works here as a chat attachment. */
export const UPLOAD_PURPOSES = ['assistants', 'batch', 'fine-tune', 'vision', 'user_data', 'evals'] as const

/** Room for the multipart framing and the `purpose` field around the file itself. */
const MULTIPART_OVERHEAD = 64 * 1024

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
  bridge.post(
    '/files',
    limitBody(() => limits().maxFileBytes + MULTIPART_OVERHEAD, bridgeErrors.fileTooLarge),
    async (c) => {
      if (!c.req.header('content-type')?.toLowerCase().startsWith('multipart/form-data'))
        return errorResponse(
          c,
          bridgeErrors.invalid('Upload files as multipart/form-data with the fields "file" and "purpose".'),
        )
      let form: Record<string, string | File | (string | File)[]>
      try {
        form = await c.req.parseBody()
      } catch {
        return errorResponse(c, bridgeErrors.invalid('The multipart body could not be read.'))
      }
      const { file, purpose } = form
      if (!(file instanceof File))
        return errorResponse(
          c,
          bridgeErrors.invalid('Missing the file: send it in the field "file".', 'file'),
        )
      if (typeof purpose !== 'string' || !(UPLOAD_PURPOSES as readonly string[]).includes(purpose))
        return errorResponse(
          c,
          bridgeErrors.invalid(`"purpose" must be one of: ${UPLOAD_PURPOSES.join(', ')}.`, 'purpose'),
        )
      const limit = limits().maxFileBytes
      if (file.size > limit) return errorResponse(c, bridgeErrors.fileTooLarge(limit))
      const type = file.type.split(';')[0]?.trim()
      const stored = await store.create({
        filename: file.name,
        purpose,
        bytes: new Uint8Array(await file.arrayBuffer()),
        owner: c.get('tokenName'),
        ...(type && type !== 'application/octet-stream' ? { mimeType: file.type } : {}),
      })
      return c.json(fileObject(stored))
    },
  )

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

import type { Hono } from 'hono'
import type { ToolRegistry } from '../../tools'
import { bridgeErrors, errorResponse } from '../errors'
import type { BridgeEnv } from '../types'
import { findModel, listModels, type ModelEntry } from './modelCatalog'

function modelObject(entry: ModelEntry, created: number) {
  return {
    id: entry.profile.id,
    object: 'model' as const,
    created,
    owned_by: 'bureau',
    bureau_description: entry.description,
  }
}

/** `GET /v1/models` and `GET /v1/models/{id}`. */
export function mountModelEndpoints(bridge: Hono<BridgeEnv>, registry: () => ToolRegistry): void {
  const created = Math.floor(Date.now() / 1000)
  bridge.get('/models', (c) =>
    c.json({ object: 'list', data: listModels(registry()).map((entry) => modelObject(entry, created)) }),
  )
  bridge.get('/models/:id', (c) => {
    const id = c.req.param('id')
    const entry = listModels(registry()).find((e) => e.profile.id === id)
    return entry ? c.json(modelObject(entry, created)) : errorResponse(c, bridgeErrors.unknownModel(id))
  })
}

export { findModel }

// Public API of the OpenAI-compatible bridge (`/v1` on `bureau serve`). Other services import only from here.
export {
  type BridgeTokenInfo,
  createBridgeToken,
  listBridgeTokens,
  revokeBridgeToken,
  type TokenSecrets,
  verifyBridgeToken,
} from './auth/tokenStore'
export type { OpenAiErrorBody } from './errors'
export type { BridgeLimits } from './limits/bridgeLimits'
export { AGENT_MODEL, CHAT_MODEL } from './models/modelCatalog'
export { type Bridge, type BridgeApp, type BridgeOptions, createBridge } from './mountBridge'

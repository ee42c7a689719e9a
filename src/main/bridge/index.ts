// Public API of the OpenAI-compatible bridge (`/v1` on `bureau serve`). Other services import only from here.
export { createBridgeToken, listBridgeTokens, revokeBridgeToken } from './auth/tokenStore'
export type { BridgeLimits } from './limits/bridgeLimits'
export { createBridge } from './mountBridge'

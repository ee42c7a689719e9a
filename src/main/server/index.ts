export { startHttpHost } from './createHttpHost'
export { CONTENT_SECURITY_POLICY } from './rendererEndpoints'

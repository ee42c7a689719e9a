import { z } from 'zod'
import type { RequestVerdicts } from './requestVerdicts'

/**
 * WebSockets and WebRTC of Bureau's tabs. The DevTools Fetch domain never sees a WebSocket handshake,
 * so a page could reach a service on loopback over `ws://` and show what it answers. An init script
 * (`SOCKET_GUARD_SCRIPT`, in every document and frame of Bureau's tabs) replaces `WebSocket` with a
 * look-alike that opens the real socket only after Bureau's URL guard allowed its address, asked over
 * a DevTools binding (`Runtime.addBinding`) and answered with `Runtime.evaluate` in the asking realm.
 * WebRTC has no use for the agent and would reach local addresses over UDP: its constructors are removed.
 *
 * The page cannot forge an answer: the script captures the binding and every built-in it uses before
 * any page script runs (a page patching `EventTarget.prototype` or `Map` later sees nothing), each
 * socket waits under a random 128-bit nonce the page never sees, and the answer function is a
 * non-configurable, non-writable global (a page can neither replace nor shadow it).
 */
export const SOCKET_CHECK_BINDING = '__bureauSocketCheck'
const VERDICT_FUNCTION = '__bureauSocketVerdict'

export const SOCKET_GUARD_SCRIPT = `(() => {
  const G = globalThis
  const BINDING = ${JSON.stringify(SOCKET_CHECK_BINDING)}
  const VERDICT = ${JSON.stringify(VERDICT_FUNCTION)}
  const getOwn = Object.getOwnPropertyDescriptor
  const define = Object.defineProperty
  if (getOwn(G, VERDICT)) return
  const ask = typeof G[BINDING] === 'function' ? G[BINDING] : null
  try { delete G[BINDING] } catch {}
  for (const name of ['RTCPeerConnection', 'webkitRTCPeerConnection']) try { delete G[name] } catch {}
  const Native = G.WebSocket
  if (typeof Native !== 'function') return
  const apply = Reflect.apply
  const getter = (proto, name) => getOwn(proto, name).get
  const native = {
    send: Native.prototype.send,
    close: Native.prototype.close,
    readyState: getter(Native.prototype, 'readyState'),
    bufferedAmount: getter(Native.prototype, 'bufferedAmount'),
    protocol: getter(Native.prototype, 'protocol'),
    extensions: getter(Native.prototype, 'extensions'),
    setBinaryType: getOwn(Native.prototype, 'binaryType').set,
    listen: G.EventTarget.prototype.addEventListener,
    dispatch: G.EventTarget.prototype.dispatchEvent,
    data: getter(G.MessageEvent.prototype, 'data'),
    origin: getter(G.MessageEvent.prototype, 'origin'),
    lastEventId: getter(G.MessageEvent.prototype, 'lastEventId'),
    code: getter(G.CloseEvent.prototype, 'code'),
    reason: getter(G.CloseEvent.prototype, 'reason'),
    wasClean: getter(G.CloseEvent.prototype, 'wasClean'),
  }
  const { URL: Url, DOMException: DomException, Event: PlainEvent, MessageEvent: Message, CloseEvent: Close } = G
  const setTimer = G.setTimeout
  const random = G.crypto.getRandomValues.bind(G.crypto)
  const ArrayFrom = Array.from
  const HEX = '0123456789abcdef'
  const nonce = () => {
    const bytes = random(new Uint8Array(16))
    let text = ''
    for (let i = 0; i < 16; i++) text += HEX[bytes[i] >> 4] + HEX[bytes[i] & 15]
    return text
  }
  const pending = Object.create(null)
  define(G, VERDICT, {
    value: (id, refusal) => {
      const settle = pending[id]
      if (typeof settle !== 'function') return
      pending[id] = undefined
      settle(refusal)
    },
    writable: false, configurable: false, enumerable: false,
  })
  const CONNECTING = 0, OPEN = 1, CLOSING = 2, CLOSED = 3
  const HANDLERS = ['open', 'message', 'error', 'close']
  class WebSocket extends G.EventTarget {
    #url
    #protocols
    #state = CONNECTING
    #real = null
    #binaryType = 'blob'
    #handlers = Object.create(null)
    constructor(url, protocols) {
      super()
      let parsed
      try { parsed = new Url(url, G.location.href) } catch {
        throw new DomException("Failed to construct 'WebSocket': The URL '" + url + "' is invalid.", 'SyntaxError')
      }
      if (parsed.protocol === 'http:') parsed.protocol = 'ws:'
      else if (parsed.protocol === 'https:') parsed.protocol = 'wss:'
      if (parsed.protocol !== 'ws:' && parsed.protocol !== 'wss:')
        throw new DomException("Failed to construct 'WebSocket': The URL's scheme must be either 'http', 'https', 'ws', or 'wss'.", 'SyntaxError')
      if (parsed.hash)
        throw new DomException("Failed to construct 'WebSocket': The URL contains a fragment identifier.", 'SyntaxError')
      this.#url = '' + parsed.href
      this.#protocols = protocols === undefined ? [] : typeof protocols === 'string' ? [protocols] : ArrayFrom(protocols, (p) => '' + p)
      for (const type of HANDLERS)
        apply(native.listen, this, [type, (event) => {
          const handler = this.#handlers[type]
          if (typeof handler === 'function') apply(handler, this, [event])
        }])
      const id = nonce()
      pending[id] = (refusal) => this.#decided(refusal)
      if (ask) ask(id + ' ' + this.#url)
      else setTimer(() => G[VERDICT](id, 'unchecked'), 0)
    }
    #emit(event) { apply(native.dispatch, this, [event]) }
    #fail() {
      this.#state = CLOSED
      this.#emit(new PlainEvent('error'))
      this.#emit(new Close('close', { code: 1006, reason: '', wasClean: false }))
    }
    #decided(refusal) {
      if (this.#state !== CONNECTING) return
      if (refusal !== null) return this.#fail()
      let real
      try { real = new Native(this.#url, this.#protocols) } catch { return this.#fail() }
      this.#real = real
      apply(native.setBinaryType, real, [this.#binaryType])
      const on = (type, make) => apply(native.listen, real, [type, (event) => this.#emit(make(event))])
      on('open', () => new PlainEvent('open'))
      on('message', (e) => new Message('message', { data: apply(native.data, e, []), origin: apply(native.origin, e, []), lastEventId: apply(native.lastEventId, e, []) }))
      on('error', () => new PlainEvent('error'))
      on('close', (e) => new Close('close', { code: apply(native.code, e, []), reason: apply(native.reason, e, []), wasClean: apply(native.wasClean, e, []) }))
    }
    get onopen() { return this.#handlers.open ?? null }
    set onopen(value) { this.#handlers.open = typeof value === 'function' ? value : null }
    get onmessage() { return this.#handlers.message ?? null }
    set onmessage(value) { this.#handlers.message = typeof value === 'function' ? value : null }
    get onerror() { return this.#handlers.error ?? null }
    set onerror(value) { this.#handlers.error = typeof value === 'function' ? value : null }
    get onclose() { return this.#handlers.close ?? null }
    set onclose(value) { this.#handlers.close = typeof value === 'function' ? value : null }
    get url() { return this.#url }
    get readyState() { return this.#real ? apply(native.readyState, this.#real, []) : this.#state }
    get bufferedAmount() { return this.#real ? apply(native.bufferedAmount, this.#real, []) : 0 }
    get protocol() { return this.#real ? apply(native.protocol, this.#real, []) : '' }
    get extensions() { return this.#real ? apply(native.extensions, this.#real, []) : '' }
    get binaryType() { return this.#binaryType }
    set binaryType(value) {
      if (value !== 'blob' && value !== 'arraybuffer') return
      this.#binaryType = value
      if (this.#real) apply(native.setBinaryType, this.#real, [value])
    }
    send(data) {
      if (this.#real) return apply(native.send, this.#real, [data])
      if (this.#state === CONNECTING)
        throw new DomException("Failed to execute 'send' on 'WebSocket': Still in CONNECTING state.", 'InvalidStateError')
    }
    close(...args) {
      if (this.#real) return apply(native.close, this.#real, args)
      const code = args[0]
      if (code !== undefined && code !== 1000 && !(code >= 3000 && code <= 4999))
        throw new DomException("Failed to execute 'close' on 'WebSocket': The close code must be either 1000, or between 3000 and 4999.", 'InvalidAccessError')
      if (this.#state !== CONNECTING) return
      this.#state = CLOSING
      setTimer(() => this.#fail(), 0)
    }
  }
  for (const [name, value] of [['CONNECTING', CONNECTING], ['OPEN', OPEN], ['CLOSING', CLOSING], ['CLOSED', CLOSED]]) {
    define(WebSocket, name, { value, enumerable: true })
    define(WebSocket.prototype, name, { value, enumerable: true })
  }
  define(G, 'WebSocket', { value: WebSocket, writable: true, configurable: true, enumerable: false })
})()`

export interface SocketCheck {
  /** The waiting socket's nonce: the answer names it. */
  id: string
  url: string
  /** The execution context (realm) that asked: the answer is evaluated there. */
  contextId: number
}

const BindingCalled = z.object({ name: z.string(), payload: z.string(), executionContextId: z.number() })

/**
 * The script's question in a `Runtime.bindingCalled` event (payload `<32 hex nonce> <url>`), with the
 * realm to answer in; null for anything else (the page may call the binding too).
 */
export function socketCheckOf(event: unknown): SocketCheck | null {
  const parsed = BindingCalled.safeParse(event)
  if (!parsed.success || parsed.data.name !== SOCKET_CHECK_BINDING) return null
  const match = /^([0-9a-f]{32}) (\S+)$/.exec(parsed.data.payload)
  return match
    ? { id: match[1] as string, url: match[2] as string, contextId: parsed.data.executionContextId }
    : null
}

/**
 * The URL guard's refusal for a WebSocket address, or null. The guard's rules (host, port, private
 * addresses) are those of the same address over http(s), which is what the handshake is.
 */
export async function socketRefusal(verdicts: RequestVerdicts, url: string): Promise<string | null> {
  let handshake: URL
  try {
    handshake = new URL(url)
  } catch {
    return `Refused a WebSocket to ${url.slice(0, 200)}: not a valid address.`
  }
  if (handshake.protocol !== 'ws:' && handshake.protocol !== 'wss:')
    return `Refused a WebSocket to ${url.slice(0, 200)}: only ws and wss addresses are allowed.`
  const asHttp = `${handshake.protocol === 'wss:' ? 'https' : 'http'}${url.slice(url.indexOf(':'))}`
  let refusal: string | null
  try {
    refusal = await verdicts.refusal(asHttp)
  } catch (error) {
    refusal = `it could not be checked (${error instanceof Error ? error.message : String(error)})`
  }
  if (refusal === null) return null
  // The guard names the http(s) address it checked: the note names the WebSocket's.
  const reason = refusal.replace(/^Refused \S+: /, '')
  return `Refused a WebSocket to ${url.slice(0, 200)}: ${reason}`
}

/** The expression that answers one socket in the realm that asked (`Runtime.evaluate`). */
export function socketVerdictExpression(id: string, refusal: string | null): string {
  return `${VERDICT_FUNCTION}(${JSON.stringify(id)}, ${refusal === null ? 'null' : JSON.stringify(refusal.slice(0, 300))})`
}

import ipaddr from 'ipaddr.js'

export interface AddressVerdict {
  /** True only for globally routable unicast addresses. */
  public: boolean
  /** ipaddr.js range name, e.g. `loopback`, `private`, `linkLocal`, `uniqueLocal`, `ipv4Mapped`. */
  range: string
}

const RANGE_WORDS: Record<string, string> = {
  loopback: 'a loopback address',
  private: 'a private-network address',
  linkLocal: 'a link-local address',
  uniqueLocal: 'a unique-local (private) IPv6 address',
  ipv4Mapped: 'an IPv4-mapped IPv6 address',
  ipv4Compatible: 'an IPv4-compatible IPv6 address',
  unspecified: 'the unspecified address',
  carrierGradeNat: 'a carrier-grade NAT address',
  multicast: 'a multicast address',
  broadcast: 'a broadcast address',
  reserved: 'a reserved address',
  invalid: 'not a valid IP address',
}

export function describeRange(range: string): string {
  return RANGE_WORDS[range] ?? `a special-purpose address (${range})`
}

/** Classifies an IP literal. Anything but global unicast (IPv4 or IPv6) is not public. */
export function classifyAddress(address: string): AddressVerdict {
  const literal = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '')
  if (!ipaddr.isValid(literal)) return { public: false, range: 'invalid' }
  const parsed = ipaddr.parse(literal)
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6
    const range = v6.range()
    if (range === 'ipv4Mapped') return { public: false, range }
    // ::a.b.c.d (deprecated IPv4-compatible form) reaches the embedded IPv4 address on some stacks.
    const parts = v6.parts
    if (range === 'unicast' && parts.slice(0, 6).every((part) => part === 0))
      return { public: false, range: 'ipv4Compatible' }
    return { public: range === 'unicast', range }
  }
  const range = parsed.range()
  return { public: range === 'unicast', range }
}

/** True when `address` lies in `cidr` (`10.0.0.0/8`, `fd00::/8`) or equals it (a bare IP). */
export function addressInRange(address: string, cidr: string): boolean {
  try {
    const ip = ipaddr.process(address.replace(/^\[|\]$/g, ''))
    if (!cidr.includes('/')) return ip.toString() === ipaddr.process(cidr).toString()
    const [network, bits] = ipaddr.parseCIDR(cidr)
    return ip.kind() === network.kind() && ip.match([network, bits] as [typeof ip, number])
  } catch {
    return false
  }
}

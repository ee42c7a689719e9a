import type { MessageAddressObject } from 'imapflow'

/** "Marta Ruiz <marta@example.com>" or the bare address. */
export function formatAddress(address: MessageAddressObject): string {
  const email = address.address ?? ''
  return address.name ? `${address.name} <${email}>` : email
}

export function formatAddresses(list: readonly MessageAddressObject[] | undefined): string[] {
  return (list ?? []).map(formatAddress)
}

/** `account:calendar` names a CalDAV calendar; anything else is an agent path of an .ics file. */
export function isCalDavName(name: string): boolean {
  return !name.startsWith('/') && /^[a-z0-9][a-z0-9_-]{0,63}:/.test(name)
}

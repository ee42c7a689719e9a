// electron-vite's `?modulePath` import (see workerEntry.ts): the path of a separately bundled entry.
declare module '*?modulePath' {
  const path: string
  export default path
}

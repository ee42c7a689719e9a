import { pandasPivotSuite } from './pandasPivot'

pandasPivotSuite(5_000, 60_000)

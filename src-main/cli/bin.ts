export { main } from './main'

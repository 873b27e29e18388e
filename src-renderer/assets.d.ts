// Vite bundles CSS imported for its side effect; TypeScript only needs to know the import is allowed.
declare module '*.css'

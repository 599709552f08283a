// Markdown assets are bundled as text by esbuild (and read as text by the test runner).
declare module '*.md' {
  const text: string;
  export default text;
}

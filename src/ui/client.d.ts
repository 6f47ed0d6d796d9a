/** The admin page's client script, imported `with { type: "text" }`: its source text. */
declare const text: string;
export default text;

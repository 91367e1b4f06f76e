// Small DOM helpers shared by the page's parts (a module of its own, so
// that the parts that use them do not import each other).

// el makes an element with a class and a text.
export function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

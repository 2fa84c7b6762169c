// Builds DOM nodes without innerHTML, so text from the API (drive models,
// serials) can never become markup.
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') node.className = value;
    else if (key === 'dataset') Object.assign(node.dataset, value);
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// Marks a table to be drawn as stacked rows on a phone (css: table.stack):
// each cell carries its column's heading as data-label, shown beside the
// value when the columns no longer fit, so no column hides off-screen.
export function stacked(table) {
  const heads = [...table.querySelectorAll('thead th')].map((th) => th.textContent);
  table.classList.add('stack');
  for (const row of table.querySelectorAll('tbody tr')) {
    [...row.children].forEach((cell, i) => {
      if (heads[i]) cell.dataset.label = heads[i];
    });
  }
  return table;
}

// Hands a Blob to the browser as a download named `name`.
export function saveFile(blob, name) {
  const url = URL.createObjectURL(blob);
  const link = el('a', { href: url, download: name, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60000);
}

// Resolves in a later task: a page built in parts lets the browser draw and
// answer a tap between them (a slow phone's long task blocks both).
export function nextTask() {
  if (globalThis.scheduler && typeof scheduler.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => { setTimeout(resolve, 0); });
}

// Inline code breaks only at its spaces: each word of it is kept whole (a browser would also
// break after every hyphen and, in a narrow table column, inside an identifier).
function keepCodeWordsWhole() {
  document.querySelectorAll(".md-typeset code:not(pre > code)").forEach((code) => {
    if (code.dataset.wnWords || code.children.length) return;
    const words = code.textContent.split(/( +)/);
    code.textContent = "";
    for (const word of words) {
      if (/^ +$/.test(word) || word === "") {
        code.append(word);
      } else {
        const span = document.createElement("span");
        span.className = "wn-word";
        span.textContent = word;
        code.append(span);
      }
    }
    code.dataset.wnWords = "1";
  });
}
if (typeof document$ !== "undefined") {
  document$.subscribe(keepCodeWordsWhole);
} else {
  document.addEventListener("DOMContentLoaded", keepCodeWordsWhole);
}

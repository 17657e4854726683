(function () {
  var box = document.getElementById('filter');
  var only = document.getElementById('only-lost');
  var count = document.getElementById('shown');
  function apply() {
    var words = box.value.toLowerCase();
    var shown = 0;
    document.querySelectorAll('article.question').forEach(function (q) {
      var hit = q.textContent.toLowerCase().indexOf(words) >= 0;
      var lost = q.getAttribute('data-lost') !== '';
      var visible = hit && (!only.checked || lost);
      q.classList.toggle('hidden', !visible);
      if (visible) { shown += 1; }
    });
    count.textContent = shown;
  }
  box.addEventListener('input', apply);
  only.addEventListener('change', apply);
  apply();
})();

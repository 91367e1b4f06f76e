# Functions that read this machine's own apt configuration, sourced by
# podman.sh (and by internal/container's test of them): the Debian mirror
# for debootstrap is the one apt already uses here, never a host named in
# this repository. ROOT (default /) lets the test give sample files.

# apt_suite [ROOT]: the code name of the machine's release
# (VERSION_CODENAME in ROOT/etc/os-release, e.g. bookworm).
apt_suite() {
  (
    # shellcheck disable=SC1091
    . "${1:-}/etc/os-release" 2>/dev/null || exit 1
    [ -n "${VERSION_CODENAME:-}" ] && echo "$VERSION_CODENAME"
  )
}

# apt_mirror SUITE [ROOT]: the URI of the first enabled binary source
# ("deb") in ROOT's apt sources that serves SUITE, read in apt's order:
# etc/apt/sources.list (one-line format), then etc/apt/sources.list.d/*.list
# (one-line) and *.sources (deb822) by name; other files there are not
# read (by apt neither). Only URIs debootstrap can use count (http, https,
# ftp, file). Exits 1 when there is none.
apt_mirror() {
  local suite="$1" root="${2:-}" f uri
  local files=("$root/etc/apt/sources.list")
  local LC_ALL=C # apt's order of names
  for f in "$root"/etc/apt/sources.list.d/*; do files+=("$f"); done
  for f in "${files[@]}"; do
    [ -f "$f" ] || continue
    case "$f" in
      *.sources) uri="$(awk -v suite="$suite" "$_apt_deb822" "$f")" ;;
      */sources.list | *.list) uri="$(awk -v suite="$suite" "$_apt_oneline" "$f")" ;;
      *) continue ;;
    esac
    if [ -n "$uri" ]; then
      echo "$uri"
      return 0
    fi
  done
  return 1
}

# The awk programs print the first fitting URI of a file, if any.
_apt_usable='function usable(u) { return u ~ /^(https?|ftp):\/\/[^ \t]/ || u ~ /^file:\/[^ \t]/ }'

# One-line format: deb [ options ] URI SUITE [COMPONENT...], # comments.
_apt_oneline="$_apt_usable"'
{ sub(/#.*/, "") }
$0 !~ /^[ \t]*deb([ \t]|\[)/ { next }
{
  rest = $0
  sub(/^[ \t]*deb[ \t]*/, "", rest)
  if (substr(rest, 1, 1) == "[") {
    end = index(rest, "]")
    if (end == 0) next
    rest = substr(rest, end + 1)
  }
  sub(/^[ \t]+/, "", rest)
  split(rest, f, /[ \t]+/)
  if (f[2] == suite && usable(f[1])) { print f[1]; exit }
}'

# deb822 format: paragraphs of "Key: value" fields (keys in any case, a
# value may go on in indented lines), separated by blank lines; lines
# starting with # are comments; "Enabled: no" turns a paragraph off.
_apt_deb822="$_apt_usable"'
function has(list, word,    n, w, i) {
  n = split(list, w, /[ \t]+/)
  for (i = 1; i <= n; i++) if (w[i] == word) return 1
  return 0
}
function flush(    n, u, i) {
  if (!done && has(types, "deb") && tolower(enabled) != "no" && has(suites, suite)) {
    n = split(uris, u, /[ \t]+/)
    for (i = 1; i <= n; i++) if (usable(u[i])) { print u[i]; done = 1; break }
  }
  types = uris = suites = enabled = key = ""
}
/^[ \t]*#/ { next }
/^[ \t]*$/ { flush(); next }
{
  if ($0 ~ /^[ \t]/) value = $0
  else {
    c = index($0, ":")
    if (c == 0) next
    key = tolower(substr($0, 1, c - 1))
    value = substr($0, c + 1)
  }
  if (key == "types") types = types " " value
  else if (key == "uris") uris = uris " " value
  else if (key == "suites") suites = suites " " value
  else if (key == "enabled") { gsub(/[ \t]/, "", value); enabled = enabled value }
}
END { flush() }'

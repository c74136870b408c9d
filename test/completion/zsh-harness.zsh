# Runs the payctl completion function in real zsh for one command line, printing the candidates
# that match what is typed, as the completion system's compadd would.
compdef() { :; }
compadd() {
  while [[ $# -gt 0 && $1 != -- ]]; do shift; done; shift
  local candidate
  for candidate in "$@"; do [[ $candidate == ${words[CURRENT]}* ]] && print -- "$candidate"; done
}
_describe() {
  local arrays=() a item
  while [[ $# -gt 0 ]]; do case $1 in -t) shift 2 ;; --) shift ;; *) arrays+=("$1"); shift ;; esac; done
  for a in ${arrays[2,-1]}; do for item in "${(@P)a}"; do compadd -- "${item%%:*}"; done; done
}
source "$1"
words=(${(z)2}); [[ $2 == *' ' ]] && words+=('')
CURRENT=${#words}
_payctl || true

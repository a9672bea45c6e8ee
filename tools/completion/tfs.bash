# bash completion for tfs (installed as share/bash-completion/completions/tfs).
# Every option of `tfs --help` is listed here (a test checks it).
_tfs() {
  local cur prev
  COMPREPLY=()
  cur="${COMP_WORDS[COMP_CWORD]}"
  prev="${COMP_WORDS[COMP_CWORD-1]}"
  local opts="-c -o --output= --backend= --emit= --emit-graph --print-loc --profile
              --time --run-functions-eagerly --max-steps= --max-memory= -h --help --version"
  case "$prev" in
    -o|--output) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    -c) return ;;
  esac
  case "$cur" in
    --backend=*) COMPREPLY=($(compgen -W "jit interp" -- "${cur#--backend=}")); return ;;
    --emit=*) COMPREPLY=($(compgen -W "ast autograph graph graph-opt llvm asm dot" -- "${cur#--emit=}")); return ;;
    -*) COMPREPLY=($(compgen -W "$opts" -- "$cur")); compopt -o nospace 2>/dev/null
        [[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} != *= ]] && compopt +o nospace 2>/dev/null
        return ;;
  esac
  if [[ $COMP_CWORD -eq 1 ]]; then
    COMPREPLY=($(compgen -W "run graph inspect" -- "$cur") $(compgen -f -X '!*.tfs' -- "$cur") $(compgen -d -- "$cur"))
    return
  fi
  COMPREPLY=($(compgen -f -X '!*.tfs' -- "$cur") $(compgen -d -- "$cur"))
}
complete -F _tfs tfs

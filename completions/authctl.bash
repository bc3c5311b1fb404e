#!/bin/bash

__authctl_cursor_index_in_current_word() {
    local remaining="${COMP_LINE}"

    local word
    for word in "${COMP_WORDS[@]::COMP_CWORD}"; do
        remaining="${remaining##*([[:space:]])"${word}"*([[:space:]])}"
    done

    local -ir index="$((COMP_POINT - ${#COMP_LINE} + ${#remaining}))"
    if [[ "${index}" -le 0 ]]; then
        printf 0
    else
        printf %s "${index}"
    fi
}

# positional arguments:
#
# - 1: the current (sub)command's count of positional arguments
#
# required variables:
#
# - repeating_flags: the repeating flags that the current (sub)command can accept
# - non_repeating_flags: the non-repeating flags that the current (sub)command can accept
# - repeating_options: the repeating options that the current (sub)command can accept
# - non_repeating_options: the non-repeating options that the current (sub)command can accept
# - positional_number: value ignored
# - unparsed_words: unparsed words from the current command line
#
# modified variables:
#
# - non_repeating_flags: remove flags for this (sub)command that are already on the command line
# - non_repeating_options: remove options for this (sub)command that are already on the command line
# - positional_number: set to the current positional number
# - unparsed_words: remove all flags, options, and option values for this (sub)command
__authctl_offer_flags_options() {
    local -ir positional_count="${1}"
    positional_number=0

    local was_flag_option_terminator_seen=false
    local is_parsing_option_value=false

    local -ar unparsed_word_indices=("${!unparsed_words[@]}")
    local -i word_index
    for word_index in "${unparsed_word_indices[@]}"; do
        if "${is_parsing_option_value}"; then
            # This word is an option value:
            # Reset marker for next word iff not currently the last word
            [[ "${word_index}" -ne "${unparsed_word_indices[${#unparsed_word_indices[@]} - 1]}" ]] && is_parsing_option_value=false
            unset "unparsed_words[${word_index}]"
            # Do not process this word as a flag or an option
            continue
        fi

        local word="${unparsed_words["${word_index}"]}"
        if ! "${was_flag_option_terminator_seen}"; then
            case "${word}" in
            --)
                unset "unparsed_words[${word_index}]"
                # by itself -- is a flag/option terminator, but if it is the last word, it is the start of a completion
                if [[ "${word_index}" -ne "${unparsed_word_indices[${#unparsed_word_indices[@]} - 1]}" ]]; then
                    was_flag_option_terminator_seen=true
                fi
                continue
                ;;
            -*)
                # ${word} is a flag or an option
                # If ${word} is an option, mark that the next word to be parsed is an option value
                local option
                for option in "${repeating_options[@]}" "${non_repeating_options[@]}"; do
                    [[ "${word}" = "${option}" ]] && is_parsing_option_value=true && break
                done

                # Remove ${word} from ${non_repeating_flags} or ${non_repeating_options} so it isn't offered again
                local not_found=true
                local -i index
                for index in "${!non_repeating_flags[@]}"; do
                    if [[ "${non_repeating_flags[${index}]}" = "${word}" ]]; then
                        unset "non_repeating_flags[${index}]"
                        non_repeating_flags=("${non_repeating_flags[@]}")
                        not_found=false
                        break
                    fi
                done
                if "${not_found}"; then
                    for index in "${!non_repeating_flags[@]}"; do
                        if [[ "${non_repeating_flags[${index}]}" = "${word}" ]]; then
                            unset "non_repeating_flags[${index}]"
                            non_repeating_flags=("${non_repeating_flags[@]}")
                            break
                        fi
                    done
                fi
                unset "unparsed_words[${word_index}]"
                continue
                ;;
            esac
        fi

        # ${word} is neither a flag, nor an option, nor an option value
        if [[ "${positional_number}" -lt "${positional_count}" || "${positional_count}" -lt 0 ]]; then
            # ${word} is a positional
            ((positional_number++))
            unset "unparsed_words[${word_index}]"
        else
            if [[ -z "${word}" ]]; then
                # Could be completing a flag, option, or subcommand
                positional_number=-1
            else
                # ${word} is a subcommand or invalid, so stop processing this (sub)command
                positional_number=-2
            fi
            break
        fi
    done

    unparsed_words=("${unparsed_words[@]}")

    if\
        ! "${was_flag_option_terminator_seen}"\
        && ! "${is_parsing_option_value}"\
        && [[ ("${cur}" = -* && "${positional_number}" -ge 0) || "${positional_number}" -eq -1 ]]
    then
        COMPREPLY+=($(compgen -W "${repeating_flags[*]} ${non_repeating_flags[*]} ${repeating_options[*]} ${non_repeating_options[*]}" -- "${cur}"))
    fi
}

__authctl_add_completions() {
    local completion
    while IFS='' read -r completion; do
        COMPREPLY+=("${completion}")
    done < <(IFS=$'\n' compgen "${@}" -- "${cur}")
}

# authctl: the candidates authctl prints, offered as they are (never through compgen -W,
# which would expand $(...), backquotes and variables in them).
__authctl_add_custom_completions() {
    local completion
    while IFS='' read -r completion; do
        [[ "${completion}" == "${cur}"* ]] && COMPREPLY+=("${completion}")
    done < <(__authctl_custom_complete "${@}")
}

__authctl_custom_complete() {
    if [[ -n "${cur}" || -z ${COMP_WORDS[${COMP_CWORD}]} || "${COMP_LINE:${COMP_POINT}:1}" != ' ' ]]; then
        local -ar words=("${COMP_WORDS[@]}")
    else
        local -ar words=("${COMP_WORDS[@]::${COMP_CWORD}}" '' "${COMP_WORDS[@]:${COMP_CWORD}}")
    fi

    "${COMP_WORDS[0]}" "${@}" "${words[@]}"
}

_authctl() {
    local state
    state="$(shopt -p;shopt -po)"
    trap "${state//$'\n'/;}" RETURN
    shopt -s extglob
    set +o history +o posix

    local -xr SAP_SHELL=bash
    local -x SAP_SHELL_VERSION
    SAP_SHELL_VERSION="$(IFS='.';printf %s "${BASH_VERSINFO[*]}")"
    local -r SAP_SHELL_VERSION

    local -r cur="${2}"
    local -r prev="${3}"

    local -i positional_number
    local -a unparsed_words=("${COMP_WORDS[@]:1:${COMP_CWORD}}")

    local -a repeating_flags=()
    local -a non_repeating_flags=(--version -h --help)
    local -a repeating_options=()
    local -a non_repeating_options=()
    __authctl_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    login|link|reauth|unlink|status|token|exec|git-credential|signout|request|bootstrap|providers|users|keystore|unlock|lock|backend|version|completion|doctor|aws-credentials|gcp-token|rules|kubeconfig|help)
        # Offer subcommand argument completions
        "_authctl_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'login link reauth unlink status token exec git-credential signout request bootstrap providers users keystore unlock lock backend version completion doctor aws-credentials gcp-token rules kubeconfig help' -- "${cur}"))
        ;;
    esac
}

_authctl_login() {
    repeating_flags=()
    non_repeating_flags=(--no-browser --device-code --manual --remote --ciba --allow-any-local-user --client-credentials --jwt-bearer --json --verbose -v --quiet -q --version -h --help)
    repeating_options=(--scope --param)
    non_repeating_options=(--browser-command --login-hint --binding-message --timeout --listen-address --redirect-uri --tenant --authorization-details --id-token --raw-nonce --client-id --client-secret-env --client-secret-file --certificate-file --assertion-algorithm --federated-token-file --federated-token-env --federated-token --federated-audience --credential --issuer --client-metadata-url --provider --via --requested-token-type --keystore --config --user)
    __authctl_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--scope')
        return
        ;;
    '--param')
        return
        ;;
    '--browser-command')
        return
        ;;
    '--login-hint')
        return
        ;;
    '--binding-message')
        return
        ;;
    '--timeout')
        return
        ;;
    '--listen-address')
        return
        ;;
    '--redirect-uri')
        return
        ;;
    '--tenant')
        return
        ;;
    '--authorization-details')
        return
        ;;
    '--id-token')
        return
        ;;
    '--raw-nonce')
        return
        ;;
    '--client-id')
        return
        ;;
    '--client-secret-env')
        return
        ;;
    '--client-secret-file')
        __authctl_add_completions -f
        return
        ;;
    '--certificate-file')
        __authctl_add_completions -f
        return
        ;;
    '--assertion-algorithm')
        __authctl_add_completions -W 'RS256'$'\n''PS256'$'\n''ES256'
        return
        ;;
    '--federated-token-file')
        __authctl_add_completions -f
        return
        ;;
    '--federated-token-env')
        return
        ;;
    '--federated-token')
        __authctl_add_completions -W 'github-actions'
        return
        ;;
    '--federated-audience')
        return
        ;;
    '--credential')
        return
        ;;
    '--issuer')
        return
        ;;
    '--client-metadata-url')
        return
        ;;
    '--provider')
        __authctl_add_custom_completions ---completion login -- --provider "${COMP_CWORD}" "$(__authctl_cursor_index_in_current_word)"
        return
        ;;
    '--via')
        __authctl_add_custom_completions ---completion login -- --via "${COMP_CWORD}" "$(__authctl_cursor_index_in_current_word)"
        return
        ;;
    '--requested-token-type')
        __authctl_add_completions -W 'id-jag'$'\n''jwt'
        return
        ;;
    '--keystore')
        __authctl_add_completions -f
        return
        ;;
    '--config')
        __authctl_add_completions -f
        return
        ;;
    '--user')
        __authctl_add_custom_completions ---completion login -- --user "${COMP_CWORD}" "$(__authctl_cursor_index_in_current_word)"
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __authctl_add_custom_completions ---completion login -- positional@0 "${COMP_CWORD}" "$(__authctl_cursor_index_in_current_word)"
        return
        ;;
    esac
}

_authctl_link() {
    repeating_flags=()
    non_repeating_flags=(--no-browser --device-code --manual --remote --ciba --allow-any-local-user --consent --json --verbose -v --quiet -q --version -h --help)
    repeating_options=(--scope --param)
    non_repeating_options=(--browser-command --login-hint --binding-message --timeout --listen-address --redirect-uri --tenant --authorization-details --id-token --raw-nonce --pending --keystore --config --user)
    __authctl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--scope')
        return
        ;;
    '--param')
        return
        ;;
    '--browser-command')
        return
        ;;
    '--login-hint')
        return
        ;;
    '--binding-message')
        return
        ;;
    '--timeout')
        return
        ;;
    '--listen-address')
        return
        ;;
    '--redirect-uri')
        return
        ;;
    '--tenant')
        return
        ;;
    '--authorization-details')
        return
        ;;
    '--id-token')
        return
        ;;
    '--raw-nonce')
        return
        ;;
    '--pending')
        return
        ;;
    '--keystore')
        __authctl_add_completions -f
        return
        ;;
    '--config')
        __authctl_add_completions -f
        return
        ;;
    '--user')
        __authctl_add_custom_completions ---completion link -- --user "${COMP_CWORD}" "$(__authctl_cursor_index_in_current_word)"
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __authctl_add_custom_completions ---completion link -- positional@0 "${COMP_CWORD}" "$(__authctl_cursor_index_in_current_word)"
        return
        ;;
    esac
}

_authctl_reauth() {
    repeating_flags=()
    non_repeating_flags=(--no-browser --device-code --manual --remote --ciba --allow-any-local-user --json --verbose -v --quiet -q --version -h --help)
    repeating_options=(--scope --param)
    non_repeating_options=(--browser-command --login-hint --binding-message --timeout --listen-address --redirect-uri --tenant --authorization-details --id-token --raw-nonce --keystore --config --user)
    __authctl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--scope')
        return
        ;;
    '--param')
        return
        ;;
    '--browser-command')
        return
        ;;
    '--login-hint')
        return
        ;;
    '--binding-message')
        return
        ;;
    '--timeout')
        return
        ;;
    '--listen-address')
        return
        ;;
    '--redirect-uri')
        return
        ;;
    '--tenant')
        return
        ;;
    '--authorization-details')
        return
        ;;
    '--id-token')
        return
        ;;
    '--raw-nonce')
        return
        ;;
    '--keystore')
        __authctl_add_completions -f
        return
        ;;
    '--config')
        __authctl_add_completions -f
        return
        ;;
    '--user')
        __authctl_add_custom_completions ---completion reauth -- --user "${COMP_CWORD}" "$(__authctl_cursor_index_in_current_word)"
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __authctl_add_custom_completions ---completion reauth -- positional@0 "${COMP_CWORD}" "$(__authctl_cursor_index_in_current_word)"
        return
        ;;
    esac
}

_authctl_unlink() {
    repeating_flags=()
    non_repeating_flags=(--json --verbose -v --quiet -q --version -h --help)
    repeating_options=()
    non_repeating_options=(--keystore --config --user)
    __authctl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--keystore')
        __authctl_add_completions -f
        return
        ;;
    '--config')
        __authctl_add_completions -f
        return
        ;;
    '--user')
        __authctl_add_custom_completions ---completion unlink -- --user "${COMP_CWORD}" "$(__authctl_cursor_index_in_current_word)"
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __authctl_add_custom_completions ---completion unlink -- positional@0 "${COMP_CWORD}" "$(__authctl_cursor_index_in_current_word)"
        return
        ;;
    esac
}

_authctl_status() {
    repeating_flags=()
    non_repeating_flags=(--check --json --verbose -v --quiet -q --version -h --help)
    repeating_options=()
    non_repeating_options=(--keystore --config --user)
    __authctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--keystore')
        __authctl_add_completions -f
        return
        ;;
    '--config')
        __authctl_add_completions -f
        return
        ;;
    '--user')
        __authctl_add_custom_completions ---completion status -- --user "${COMP_CWORD}" "$(__authctl_cursor_index_in_current_word)"
        return
        ;;
    esac
}

_authctl_token() {
    repeating_flags=()
    non_repeating_flags=(--id-token --access-token --force-refresh --exchange --json --verbose -v --quiet -q --version -h --help)
    repeating_options=(--scope)
    non_repeating_options=(--min-ttl --format --method --url --audience --resource --requested-token-type --subject-token-type --actor-token-file --actor-token-env --actor-token-type --output-file --keystore --config --user)
    __authctl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--min-ttl')
        return
        ;;
    '--format')
        __authctl_add_completions -W 'raw'$'\n''json'$'\n''header'$'\n''env'$'\n''kubectl-exec'$'\n''headers-json'
        return
        ;;
    '--scope')
        return
        ;;
    '--method')
        return
        ;;
    '--url')
        return
        ;;
    '--audience')
        return
        ;;
    '--resource')
        return
        ;;
    '--requested-token-type')
        return
        ;;
    '--subject-token-type')
        __authctl_add_completions -W 'access_token'$'\n''id_token'
        return
        ;;
    '--actor-token-file')
        __authctl_add_completions -f
        return
        ;;
    '--actor-token-env')
        return
        ;;
    '--actor-token-type')
        return
        ;;
    '--output-file')
        __authctl_add_completions -f
        return
        ;;
    '--keystore')
        __authctl_add_completions -f
        return
        ;;
    '--config')
        __authctl_add_completions -f
        return
        ;;
    '--user')
        __authctl_add_custom_completions ---completion token -- --user "${COMP_CWORD}" "$(__authctl_cursor_index_in_current_word)"
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __authctl_add_custom_completions ---completion token -- positional@0 "${COMP_CWORD}" "$(__authctl_cursor_index_in_current_word)"
        return
        ;;
    esac
}

_authctl_exec() {
    repeating_flags=()
    non_repeating_flags=(--id-token --json --verbose -v --quiet -q --version -h --help)
    repeating_options=(--scope)
    non_repeating_options=(--provider --keystore --config --user)
    __authctl_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--provider')
        __authctl_add_custom_completions ---completion exec -- --provider "${COMP_CWORD}" "$(__authctl_cursor_index_in_current_word)"
        return
        ;;
    '--scope')
        return
        ;;
    '--keystore')
        __authctl_add_completions -f
        return
        ;;
    '--config')
        __authctl_add_completions -f
        return
        ;;
    '--user')
        __authctl_add_custom_completions ---completion exec -- --user "${COMP_CWORD}" "$(__authctl_cursor_index_in_current_word)"
        return
        ;;
    esac
}

_authctl_git-credential() {
    repeating_flags=()
    non_repeating_flags=(--json --verbose -v --quiet -q --version -h --help)
    repeating_options=(--scope)
    non_repeating_options=(--keystore --config --user)
    __authctl_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--keystore')
        __authctl_add_completions -f
        return
        ;;
    '--config')
        __authctl_add_completions -f
        return
        ;;
    '--user')
        __authctl_add_custom_completions ---completion git-credential -- --user "${COMP_CWORD}" "$(__authctl_cursor_index_in_current_word)"
        return
        ;;
    '--scope')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __authctl_add_custom_completions ---completion git-credential -- positional@0 "${COMP_CWORD}" "$(__authctl_cursor_index_in_current_word)"
        return
        ;;
    esac
}

_authctl_signout() {
    repeating_flags=()
    non_repeating_flags=(--all --revoke --json --verbose -v --quiet -q --version -h --help)
    repeating_options=()
    non_repeating_options=(--keystore --config --user)
    __authctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--keystore')
        __authctl_add_completions -f
        return
        ;;
    '--config')
        __authctl_add_completions -f
        return
        ;;
    '--user')
        __authctl_add_custom_completions ---completion signout -- --user "${COMP_CWORD}" "$(__authctl_cursor_index_in_current_word)"
        return
        ;;
    esac
}

_authctl_request() {
    repeating_flags=()
    non_repeating_flags=(--include --json --verbose -v --quiet -q --version -h --help)
    repeating_options=(-H --header)
    non_repeating_options=(-X --method --data --browser-command --timeout --keystore --config --user)
    __authctl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '-X'|'--method')
        return
        ;;
    '-H'|'--header')
        return
        ;;
    '--data')
        return
        ;;
    '--browser-command')
        return
        ;;
    '--timeout')
        return
        ;;
    '--keystore')
        __authctl_add_completions -f
        return
        ;;
    '--config')
        __authctl_add_completions -f
        return
        ;;
    '--user')
        __authctl_add_custom_completions ---completion request -- --user "${COMP_CWORD}" "$(__authctl_cursor_index_in_current_word)"
        return
        ;;
    esac
}

_authctl_bootstrap() {
    repeating_flags=()
    non_repeating_flags=(--allow-any-local-user --json --verbose -v --quiet -q --version -h --help)
    repeating_options=()
    non_repeating_options=(--browser-command --timeout --keystore --config --user)
    __authctl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--browser-command')
        return
        ;;
    '--timeout')
        return
        ;;
    '--keystore')
        __authctl_add_completions -f
        return
        ;;
    '--config')
        __authctl_add_completions -f
        return
        ;;
    '--user')
        __authctl_add_custom_completions ---completion bootstrap -- --user "${COMP_CWORD}" "$(__authctl_cursor_index_in_current_word)"
        return
        ;;
    esac
}

_authctl_providers() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __authctl_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    add|list|show|remove)
        # Offer subcommand argument completions
        "_authctl_providers_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'add list show remove' -- "${cur}"))
        ;;
    esac
}

_authctl_providers_add() {
    repeating_flags=()
    non_repeating_flags=(--clear-scopes --clear-params --clear-redirect-uri --clear-listen-address --clear-client-secret --no-check --json --verbose -v --quiet -q --version -h --help)
    repeating_options=(--scope --param)
    non_repeating_options=(--preset --domain --realm --authorization-server --client-id --client-secret-env --client-secret-file --client-certificate-file --redirect-uri --listen-address --issuer --flow --dpop --par --profile --tenant --authority-host --graph-host --team-id --key-id --private-key-file --keystore --config --user)
    __authctl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--preset')
        __authctl_add_completions -W 'google'$'\n''gitlab'$'\n''okta'$'\n''auth0'$'\n''keycloak'
        return
        ;;
    '--domain')
        return
        ;;
    '--realm')
        return
        ;;
    '--authorization-server')
        return
        ;;
    '--client-id')
        return
        ;;
    '--client-secret-env')
        return
        ;;
    '--client-secret-file')
        __authctl_add_completions -f
        return
        ;;
    '--client-certificate-file')
        __authctl_add_completions -f
        return
        ;;
    '--scope')
        return
        ;;
    '--param')
        return
        ;;
    '--redirect-uri')
        return
        ;;
    '--listen-address')
        return
        ;;
    '--issuer')
        return
        ;;
    '--flow')
        return
        ;;
    '--dpop')
        return
        ;;
    '--par')
        return
        ;;
    '--profile')
        return
        ;;
    '--tenant')
        return
        ;;
    '--authority-host')
        return
        ;;
    '--graph-host')
        return
        ;;
    '--team-id')
        return
        ;;
    '--key-id')
        return
        ;;
    '--private-key-file')
        __authctl_add_completions -f
        return
        ;;
    '--keystore')
        __authctl_add_completions -f
        return
        ;;
    '--config')
        __authctl_add_completions -f
        return
        ;;
    '--user')
        __authctl_add_custom_completions ---completion providers add -- --user "${COMP_CWORD}" "$(__authctl_cursor_index_in_current_word)"
        return
        ;;
    esac
}

_authctl_providers_list() {
    repeating_flags=()
    non_repeating_flags=(--json --verbose -v --quiet -q --version -h --help)
    repeating_options=()
    non_repeating_options=(--keystore --config --user)
    __authctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--keystore')
        __authctl_add_completions -f
        return
        ;;
    '--config')
        __authctl_add_completions -f
        return
        ;;
    '--user')
        __authctl_add_custom_completions ---completion providers list -- --user "${COMP_CWORD}" "$(__authctl_cursor_index_in_current_word)"
        return
        ;;
    esac
}

_authctl_providers_show() {
    repeating_flags=()
    non_repeating_flags=(--json --verbose -v --quiet -q --version -h --help)
    repeating_options=()
    non_repeating_options=(--keystore --config --user)
    __authctl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--keystore')
        __authctl_add_completions -f
        return
        ;;
    '--config')
        __authctl_add_completions -f
        return
        ;;
    '--user')
        __authctl_add_custom_completions ---completion providers show -- --user "${COMP_CWORD}" "$(__authctl_cursor_index_in_current_word)"
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __authctl_add_custom_completions ---completion providers show -- positional@0 "${COMP_CWORD}" "$(__authctl_cursor_index_in_current_word)"
        return
        ;;
    esac
}

_authctl_providers_remove() {
    repeating_flags=()
    non_repeating_flags=(-y --yes --json --verbose -v --quiet -q --version -h --help)
    repeating_options=()
    non_repeating_options=(--keystore --config --user)
    __authctl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--keystore')
        __authctl_add_completions -f
        return
        ;;
    '--config')
        __authctl_add_completions -f
        return
        ;;
    '--user')
        __authctl_add_custom_completions ---completion providers remove -- --user "${COMP_CWORD}" "$(__authctl_cursor_index_in_current_word)"
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __authctl_add_custom_completions ---completion providers remove -- positional@0 "${COMP_CWORD}" "$(__authctl_cursor_index_in_current_word)"
        return
        ;;
    esac
}

_authctl_users() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __authctl_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    list|show|use|delete|export|import|photo)
        # Offer subcommand argument completions
        "_authctl_users_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'list show use delete export import photo' -- "${cur}"))
        ;;
    esac
}

_authctl_users_list() {
    repeating_flags=()
    non_repeating_flags=(--json --verbose -v --quiet -q --version -h --help)
    repeating_options=()
    non_repeating_options=(--keystore --config --user)
    __authctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--keystore')
        __authctl_add_completions -f
        return
        ;;
    '--config')
        __authctl_add_completions -f
        return
        ;;
    '--user')
        __authctl_add_custom_completions ---completion users list -- --user "${COMP_CWORD}" "$(__authctl_cursor_index_in_current_word)"
        return
        ;;
    esac
}

_authctl_users_show() {
    repeating_flags=()
    non_repeating_flags=(--json --verbose -v --quiet -q --version -h --help)
    repeating_options=()
    non_repeating_options=(--keystore --config --user)
    __authctl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--keystore')
        __authctl_add_completions -f
        return
        ;;
    '--config')
        __authctl_add_completions -f
        return
        ;;
    '--user')
        __authctl_add_custom_completions ---completion users show -- --user "${COMP_CWORD}" "$(__authctl_cursor_index_in_current_word)"
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __authctl_add_custom_completions ---completion users show -- positional@0 "${COMP_CWORD}" "$(__authctl_cursor_index_in_current_word)"
        return
        ;;
    esac
}

_authctl_users_use() {
    repeating_flags=()
    non_repeating_flags=(--json --verbose -v --quiet -q --version -h --help)
    repeating_options=()
    non_repeating_options=(--keystore --config --user)
    __authctl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--keystore')
        __authctl_add_completions -f
        return
        ;;
    '--config')
        __authctl_add_completions -f
        return
        ;;
    '--user')
        __authctl_add_custom_completions ---completion users use -- --user "${COMP_CWORD}" "$(__authctl_cursor_index_in_current_word)"
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __authctl_add_custom_completions ---completion users use -- positional@0 "${COMP_CWORD}" "$(__authctl_cursor_index_in_current_word)"
        return
        ;;
    esac
}

_authctl_users_delete() {
    repeating_flags=()
    non_repeating_flags=(-y --yes --json --verbose -v --quiet -q --version -h --help)
    repeating_options=()
    non_repeating_options=(--keystore --config --user)
    __authctl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--keystore')
        __authctl_add_completions -f
        return
        ;;
    '--config')
        __authctl_add_completions -f
        return
        ;;
    '--user')
        __authctl_add_custom_completions ---completion users delete -- --user "${COMP_CWORD}" "$(__authctl_cursor_index_in_current_word)"
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __authctl_add_custom_completions ---completion users delete -- positional@0 "${COMP_CWORD}" "$(__authctl_cursor_index_in_current_word)"
        return
        ;;
    esac
}

_authctl_users_export() {
    repeating_flags=()
    non_repeating_flags=(--json --verbose -v --quiet -q --version -h --help)
    repeating_options=()
    non_repeating_options=(--format --keystore --config --user)
    __authctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--format')
        __authctl_add_completions -W 'authctl'$'\n''firebase'
        return
        ;;
    '--keystore')
        __authctl_add_completions -f
        return
        ;;
    '--config')
        __authctl_add_completions -f
        return
        ;;
    '--user')
        __authctl_add_custom_completions ---completion users export -- --user "${COMP_CWORD}" "$(__authctl_cursor_index_in_current_word)"
        return
        ;;
    esac
}

_authctl_users_import() {
    repeating_flags=()
    non_repeating_flags=(--json --verbose -v --quiet -q --version -h --help)
    repeating_options=()
    non_repeating_options=(--keystore --config --user)
    __authctl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--keystore')
        __authctl_add_completions -f
        return
        ;;
    '--config')
        __authctl_add_completions -f
        return
        ;;
    '--user')
        __authctl_add_custom_completions ---completion users import -- --user "${COMP_CWORD}" "$(__authctl_cursor_index_in_current_word)"
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __authctl_add_completions -f
        return
        ;;
    esac
}

_authctl_users_photo() {
    repeating_flags=()
    non_repeating_flags=(--json --verbose -v --quiet -q --version -h --help)
    repeating_options=()
    non_repeating_options=(--output -o --keystore --config --user)
    __authctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--output'|'-o')
        __authctl_add_completions -f
        return
        ;;
    '--keystore')
        __authctl_add_completions -f
        return
        ;;
    '--config')
        __authctl_add_completions -f
        return
        ;;
    '--user')
        __authctl_add_custom_completions ---completion users photo -- --user "${COMP_CWORD}" "$(__authctl_cursor_index_in_current_word)"
        return
        ;;
    esac
}

_authctl_keystore() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __authctl_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    status|seal|unseal|rekey|new-key)
        # Offer subcommand argument completions
        "_authctl_keystore_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'status seal unseal rekey new-key' -- "${cur}"))
        ;;
    esac
}

_authctl_keystore_status() {
    repeating_flags=()
    non_repeating_flags=(--json --verbose -v --quiet -q --version -h --help)
    repeating_options=()
    non_repeating_options=(--keystore --config --user)
    __authctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--keystore')
        __authctl_add_completions -f
        return
        ;;
    '--config')
        __authctl_add_completions -f
        return
        ;;
    '--user')
        __authctl_add_custom_completions ---completion keystore status -- --user "${COMP_CWORD}" "$(__authctl_cursor_index_in_current_word)"
        return
        ;;
    esac
}

_authctl_keystore_seal() {
    repeating_flags=()
    non_repeating_flags=(--keyring --json --verbose -v --quiet -q --version -h --help)
    repeating_options=()
    non_repeating_options=(--key-file --passphrase-env --passphrase-file --keystore --config --user)
    __authctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--key-file')
        __authctl_add_completions -f
        return
        ;;
    '--passphrase-env')
        return
        ;;
    '--passphrase-file')
        __authctl_add_completions -f
        return
        ;;
    '--keystore')
        __authctl_add_completions -f
        return
        ;;
    '--config')
        __authctl_add_completions -f
        return
        ;;
    '--user')
        __authctl_add_custom_completions ---completion keystore seal -- --user "${COMP_CWORD}" "$(__authctl_cursor_index_in_current_word)"
        return
        ;;
    esac
}

_authctl_keystore_unseal() {
    repeating_flags=()
    non_repeating_flags=(-y --yes --json --verbose -v --quiet -q --version -h --help)
    repeating_options=()
    non_repeating_options=(--keystore --config --user)
    __authctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--keystore')
        __authctl_add_completions -f
        return
        ;;
    '--config')
        __authctl_add_completions -f
        return
        ;;
    '--user')
        __authctl_add_custom_completions ---completion keystore unseal -- --user "${COMP_CWORD}" "$(__authctl_cursor_index_in_current_word)"
        return
        ;;
    esac
}

_authctl_keystore_rekey() {
    repeating_flags=()
    non_repeating_flags=(--keyring --json --verbose -v --quiet -q --version -h --help)
    repeating_options=()
    non_repeating_options=(--key-file --passphrase-env --passphrase-file --keystore --config --user)
    __authctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--key-file')
        __authctl_add_completions -f
        return
        ;;
    '--passphrase-env')
        return
        ;;
    '--passphrase-file')
        __authctl_add_completions -f
        return
        ;;
    '--keystore')
        __authctl_add_completions -f
        return
        ;;
    '--config')
        __authctl_add_completions -f
        return
        ;;
    '--user')
        __authctl_add_custom_completions ---completion keystore rekey -- --user "${COMP_CWORD}" "$(__authctl_cursor_index_in_current_word)"
        return
        ;;
    esac
}

_authctl_keystore_new-key() {
    repeating_flags=()
    non_repeating_flags=(--json --verbose -v --quiet -q --version -h --help)
    repeating_options=()
    non_repeating_options=(--keystore --config --user)
    __authctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--keystore')
        __authctl_add_completions -f
        return
        ;;
    '--config')
        __authctl_add_completions -f
        return
        ;;
    '--user')
        __authctl_add_custom_completions ---completion keystore new-key -- --user "${COMP_CWORD}" "$(__authctl_cursor_index_in_current_word)"
        return
        ;;
    esac
}

_authctl_unlock() {
    repeating_flags=()
    non_repeating_flags=(--json --verbose -v --quiet -q --version -h --help)
    repeating_options=()
    non_repeating_options=(--for --keystore --config --user)
    __authctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--for')
        return
        ;;
    '--keystore')
        __authctl_add_completions -f
        return
        ;;
    '--config')
        __authctl_add_completions -f
        return
        ;;
    '--user')
        __authctl_add_custom_completions ---completion unlock -- --user "${COMP_CWORD}" "$(__authctl_cursor_index_in_current_word)"
        return
        ;;
    esac
}

_authctl_lock() {
    repeating_flags=()
    non_repeating_flags=(--json --verbose -v --quiet -q --version -h --help)
    repeating_options=()
    non_repeating_options=(--keystore --config --user)
    __authctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--keystore')
        __authctl_add_completions -f
        return
        ;;
    '--config')
        __authctl_add_completions -f
        return
        ;;
    '--user')
        __authctl_add_custom_completions ---completion lock -- --user "${COMP_CWORD}" "$(__authctl_cursor_index_in_current_word)"
        return
        ;;
    esac
}

_authctl_backend() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __authctl_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    use|show)
        # Offer subcommand argument completions
        "_authctl_backend_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'use show' -- "${cur}"))
        ;;
    esac
}

_authctl_backend_use() {
    repeating_flags=()
    non_repeating_flags=(--json --verbose -v --quiet -q --version -h --help)
    repeating_options=()
    non_repeating_options=(--project --api-key --tenant-id --emulator --keystore --config --user)
    __authctl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--project')
        return
        ;;
    '--api-key')
        return
        ;;
    '--tenant-id')
        return
        ;;
    '--emulator')
        return
        ;;
    '--keystore')
        __authctl_add_completions -f
        return
        ;;
    '--config')
        __authctl_add_completions -f
        return
        ;;
    '--user')
        __authctl_add_custom_completions ---completion backend use -- --user "${COMP_CWORD}" "$(__authctl_cursor_index_in_current_word)"
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __authctl_add_completions -W 'local'$'\n''firebase'
        return
        ;;
    esac
}

_authctl_backend_show() {
    repeating_flags=()
    non_repeating_flags=(--json --verbose -v --quiet -q --version -h --help)
    repeating_options=()
    non_repeating_options=(--keystore --config --user)
    __authctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--keystore')
        __authctl_add_completions -f
        return
        ;;
    '--config')
        __authctl_add_completions -f
        return
        ;;
    '--user')
        __authctl_add_custom_completions ---completion backend show -- --user "${COMP_CWORD}" "$(__authctl_cursor_index_in_current_word)"
        return
        ;;
    esac
}

_authctl_version() {
    repeating_flags=()
    non_repeating_flags=(--json --verbose -v --quiet -q --version -h --help)
    repeating_options=()
    non_repeating_options=(--keystore --config --user)
    __authctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--keystore')
        __authctl_add_completions -f
        return
        ;;
    '--config')
        __authctl_add_completions -f
        return
        ;;
    '--user')
        __authctl_add_custom_completions ---completion version -- --user "${COMP_CWORD}" "$(__authctl_cursor_index_in_current_word)"
        return
        ;;
    esac
}

_authctl_completion() {
    repeating_flags=()
    non_repeating_flags=(--json --verbose -v --quiet -q --version -h --help)
    repeating_options=()
    non_repeating_options=(--keystore --config --user)
    __authctl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--keystore')
        __authctl_add_completions -f
        return
        ;;
    '--config')
        __authctl_add_completions -f
        return
        ;;
    '--user')
        __authctl_add_custom_completions ---completion completion -- --user "${COMP_CWORD}" "$(__authctl_cursor_index_in_current_word)"
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __authctl_add_completions -W 'bash'$'\n''zsh'$'\n''fish'
        return
        ;;
    esac
}

_authctl_doctor() {
    repeating_flags=()
    non_repeating_flags=(--json --verbose -v --quiet -q --version -h --help)
    repeating_options=()
    non_repeating_options=(--keystore --config --user)
    __authctl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--keystore')
        __authctl_add_completions -f
        return
        ;;
    '--config')
        __authctl_add_completions -f
        return
        ;;
    '--user')
        __authctl_add_custom_completions ---completion doctor -- --user "${COMP_CWORD}" "$(__authctl_cursor_index_in_current_word)"
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __authctl_add_custom_completions ---completion doctor -- positional@0 "${COMP_CWORD}" "$(__authctl_cursor_index_in_current_word)"
        return
        ;;
    esac
}

_authctl_aws-credentials() {
    repeating_flags=()
    non_repeating_flags=(--force-refresh --json --verbose -v --quiet -q --version -h --help)
    repeating_options=()
    non_repeating_options=(--role-arn --duration --session-name --sts-endpoint --region --audience --subject-token-type --provider --keystore --config --user)
    __authctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--role-arn')
        return
        ;;
    '--duration')
        return
        ;;
    '--session-name')
        return
        ;;
    '--sts-endpoint')
        return
        ;;
    '--region')
        return
        ;;
    '--audience')
        return
        ;;
    '--subject-token-type')
        __authctl_add_completions -W 'access_token'$'\n''id_token'
        return
        ;;
    '--provider')
        __authctl_add_custom_completions ---completion aws-credentials -- --provider "${COMP_CWORD}" "$(__authctl_cursor_index_in_current_word)"
        return
        ;;
    '--keystore')
        __authctl_add_completions -f
        return
        ;;
    '--config')
        __authctl_add_completions -f
        return
        ;;
    '--user')
        __authctl_add_custom_completions ---completion aws-credentials -- --user "${COMP_CWORD}" "$(__authctl_cursor_index_in_current_word)"
        return
        ;;
    esac
}

_authctl_gcp-token() {
    repeating_flags=()
    non_repeating_flags=(--json --verbose -v --quiet -q --version -h --help)
    repeating_options=()
    non_repeating_options=(--audience --subject-token-type --provider --keystore --config --user)
    __authctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--audience')
        return
        ;;
    '--subject-token-type')
        __authctl_add_completions -W 'access_token'$'\n''id_token'
        return
        ;;
    '--provider')
        __authctl_add_custom_completions ---completion gcp-token -- --provider "${COMP_CWORD}" "$(__authctl_cursor_index_in_current_word)"
        return
        ;;
    '--keystore')
        __authctl_add_completions -f
        return
        ;;
    '--config')
        __authctl_add_completions -f
        return
        ;;
    '--user')
        __authctl_add_custom_completions ---completion gcp-token -- --user "${COMP_CWORD}" "$(__authctl_cursor_index_in_current_word)"
        return
        ;;
    esac
}

_authctl_rules() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __authctl_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    add|list|remove|explain)
        # Offer subcommand argument completions
        "_authctl_rules_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'add list remove explain' -- "${cur}"))
        ;;
    esac
}

_authctl_rules_add() {
    repeating_flags=()
    non_repeating_flags=(--allow-unknown-user --json --verbose -v --quiet -q --version -h --help)
    repeating_options=()
    non_repeating_options=(--name --provider --directory --remote --kube-context --env --position --keystore --config --user)
    __authctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--name')
        return
        ;;
    '--provider')
        __authctl_add_custom_completions ---completion rules add -- --provider "${COMP_CWORD}" "$(__authctl_cursor_index_in_current_word)"
        return
        ;;
    '--directory')
        __authctl_add_completions -d
        return
        ;;
    '--remote')
        return
        ;;
    '--kube-context')
        return
        ;;
    '--env')
        return
        ;;
    '--position')
        return
        ;;
    '--keystore')
        __authctl_add_completions -f
        return
        ;;
    '--config')
        __authctl_add_completions -f
        return
        ;;
    '--user')
        __authctl_add_custom_completions ---completion rules add -- --user "${COMP_CWORD}" "$(__authctl_cursor_index_in_current_word)"
        return
        ;;
    esac
}

_authctl_rules_list() {
    repeating_flags=()
    non_repeating_flags=(--json --verbose -v --quiet -q --version -h --help)
    repeating_options=()
    non_repeating_options=(--keystore --config --user)
    __authctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--keystore')
        __authctl_add_completions -f
        return
        ;;
    '--config')
        __authctl_add_completions -f
        return
        ;;
    '--user')
        __authctl_add_custom_completions ---completion rules list -- --user "${COMP_CWORD}" "$(__authctl_cursor_index_in_current_word)"
        return
        ;;
    esac
}

_authctl_rules_remove() {
    repeating_flags=()
    non_repeating_flags=(--json --verbose -v --quiet -q --version -h --help)
    repeating_options=()
    non_repeating_options=(--keystore --config --user)
    __authctl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--keystore')
        __authctl_add_completions -f
        return
        ;;
    '--config')
        __authctl_add_completions -f
        return
        ;;
    '--user')
        __authctl_add_custom_completions ---completion rules remove -- --user "${COMP_CWORD}" "$(__authctl_cursor_index_in_current_word)"
        return
        ;;
    esac
}

_authctl_rules_explain() {
    repeating_flags=()
    non_repeating_flags=(--json --verbose -v --quiet -q --version -h --help)
    repeating_options=()
    non_repeating_options=(--remote --keystore --config --user)
    __authctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--remote')
        return
        ;;
    '--keystore')
        __authctl_add_completions -f
        return
        ;;
    '--config')
        __authctl_add_completions -f
        return
        ;;
    '--user')
        __authctl_add_custom_completions ---completion rules explain -- --user "${COMP_CWORD}" "$(__authctl_cursor_index_in_current_word)"
        return
        ;;
    esac
}

_authctl_kubeconfig() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __authctl_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    set-credentials)
        # Offer subcommand argument completions
        "_authctl_kubeconfig_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'set-credentials' -- "${cur}"))
        ;;
    esac
}

_authctl_kubeconfig_set-credentials() {
    repeating_flags=()
    non_repeating_flags=(--dry-run --json --verbose -v --quiet -q --version -h --help)
    repeating_options=()
    non_repeating_options=(--provider --kubeconfig --command --keystore --config --user)
    __authctl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--provider')
        __authctl_add_custom_completions ---completion kubeconfig set-credentials -- --provider "${COMP_CWORD}" "$(__authctl_cursor_index_in_current_word)"
        return
        ;;
    '--kubeconfig')
        __authctl_add_completions -f
        return
        ;;
    '--command')
        return
        ;;
    '--keystore')
        __authctl_add_completions -f
        return
        ;;
    '--config')
        __authctl_add_completions -f
        return
        ;;
    '--user')
        __authctl_add_custom_completions ---completion kubeconfig set-credentials -- --user "${COMP_CWORD}" "$(__authctl_cursor_index_in_current_word)"
        return
        ;;
    esac
}

_authctl_help() {
    repeating_flags=()
    non_repeating_flags=(--version)
    repeating_options=()
    non_repeating_options=()
    __authctl_offer_flags_options -1
}

complete -o filenames -F _authctl authctl

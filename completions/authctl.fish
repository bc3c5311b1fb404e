function __authctl_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __authctl_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __authctl_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __authctl_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __authctl_parse_tokens -S
    set -l unparsed_tokens (__authctl_tokens -pc)
    switch $unparsed_tokens[1]
    case 'authctl'
        __authctl_parse_subcommand 0 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'login'
            __authctl_parse_subcommand -r 2 'scope=+' 'param=+' 'browser-command=' 'no-browser' 'device-code' 'manual' 'remote' 'ciba' 'login-hint=' 'binding-message=' 'timeout=' 'listen-address=' 'redirect-uri=' 'allow-any-local-user' 'tenant=' 'authorization-details=' 'id-token=' 'raw-nonce=' 'client-credentials' 'jwt-bearer' 'client-id=' 'client-secret-env=' 'client-secret-file=' 'certificate-file=' 'assertion-algorithm=' 'federated-token-file=' 'federated-token-env=' 'federated-token=' 'federated-audience=' 'credential=' 'issuer=' 'client-metadata-url=' 'provider=' 'via=' 'requested-token-type=' 'keystore=' 'config=' 'user=' 'json' 'v/verbose' 'q/quiet' 'version' 'h/help'
        case 'link'
            __authctl_parse_subcommand 1 'scope=+' 'param=+' 'browser-command=' 'no-browser' 'device-code' 'manual' 'remote' 'ciba' 'login-hint=' 'binding-message=' 'timeout=' 'listen-address=' 'redirect-uri=' 'allow-any-local-user' 'tenant=' 'authorization-details=' 'id-token=' 'raw-nonce=' 'pending=' 'consent' 'keystore=' 'config=' 'user=' 'json' 'v/verbose' 'q/quiet' 'version' 'h/help'
        case 'reauth'
            __authctl_parse_subcommand 1 'scope=+' 'param=+' 'browser-command=' 'no-browser' 'device-code' 'manual' 'remote' 'ciba' 'login-hint=' 'binding-message=' 'timeout=' 'listen-address=' 'redirect-uri=' 'allow-any-local-user' 'tenant=' 'authorization-details=' 'id-token=' 'raw-nonce=' 'keystore=' 'config=' 'user=' 'json' 'v/verbose' 'q/quiet' 'version' 'h/help'
        case 'unlink'
            __authctl_parse_subcommand 1 'keystore=' 'config=' 'user=' 'json' 'v/verbose' 'q/quiet' 'version' 'h/help'
        case 'status'
            __authctl_parse_subcommand 0 'check' 'keystore=' 'config=' 'user=' 'json' 'v/verbose' 'q/quiet' 'version' 'h/help'
        case 'token'
            __authctl_parse_subcommand 1 'id-token' 'access-token' 'min-ttl=' 'force-refresh' 'format=' 'scope=+' 'method=' 'url=' 'exchange' 'audience=' 'resource=' 'requested-token-type=' 'subject-token-type=' 'actor-token-file=' 'actor-token-env=' 'actor-token-type=' 'output-file=' 'keystore=' 'config=' 'user=' 'json' 'v/verbose' 'q/quiet' 'version' 'h/help'
        case 'exec'
            __authctl_parse_subcommand -r 1 'provider=' 'scope=+' 'id-token' 'keystore=' 'config=' 'user=' 'json' 'v/verbose' 'q/quiet' 'version' 'h/help'
        case 'git-credential'
            __authctl_parse_subcommand 2 'keystore=' 'config=' 'user=' 'json' 'v/verbose' 'q/quiet' 'scope=+' 'version' 'h/help'
        case 'signout'
            __authctl_parse_subcommand 0 'all' 'revoke' 'keystore=' 'config=' 'user=' 'json' 'v/verbose' 'q/quiet' 'version' 'h/help'
        case 'request'
            __authctl_parse_subcommand 1 'X/method=' 'H/header=+' 'data=' 'include' 'browser-command=' 'timeout=' 'keystore=' 'config=' 'user=' 'json' 'v/verbose' 'q/quiet' 'version' 'h/help'
        case 'bootstrap'
            __authctl_parse_subcommand 1 'browser-command=' 'timeout=' 'allow-any-local-user' 'keystore=' 'config=' 'user=' 'json' 'v/verbose' 'q/quiet' 'version' 'h/help'
        case 'providers'
            __authctl_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'add'
                __authctl_parse_subcommand 1 'preset=' 'domain=' 'realm=' 'authorization-server=' 'client-id=' 'client-secret-env=' 'client-secret-file=' 'client-certificate-file=' 'scope=+' 'param=+' 'redirect-uri=' 'listen-address=' 'issuer=' 'flow=' 'dpop=' 'par=' 'profile=' 'tenant=' 'authority-host=' 'graph-host=' 'team-id=' 'key-id=' 'private-key-file=' 'clear-scopes' 'clear-params' 'clear-redirect-uri' 'clear-listen-address' 'clear-client-secret' 'no-check' 'keystore=' 'config=' 'user=' 'json' 'v/verbose' 'q/quiet' 'version' 'h/help'
            case 'list'
                __authctl_parse_subcommand 0 'keystore=' 'config=' 'user=' 'json' 'v/verbose' 'q/quiet' 'version' 'h/help'
            case 'show'
                __authctl_parse_subcommand 1 'keystore=' 'config=' 'user=' 'json' 'v/verbose' 'q/quiet' 'version' 'h/help'
            case 'remove'
                __authctl_parse_subcommand 1 'y/yes' 'keystore=' 'config=' 'user=' 'json' 'v/verbose' 'q/quiet' 'version' 'h/help'
            end
        case 'users'
            __authctl_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'list'
                __authctl_parse_subcommand 0 'keystore=' 'config=' 'user=' 'json' 'v/verbose' 'q/quiet' 'version' 'h/help'
            case 'show'
                __authctl_parse_subcommand 1 'keystore=' 'config=' 'user=' 'json' 'v/verbose' 'q/quiet' 'version' 'h/help'
            case 'use'
                __authctl_parse_subcommand 1 'keystore=' 'config=' 'user=' 'json' 'v/verbose' 'q/quiet' 'version' 'h/help'
            case 'delete'
                __authctl_parse_subcommand 1 'y/yes' 'keystore=' 'config=' 'user=' 'json' 'v/verbose' 'q/quiet' 'version' 'h/help'
            case 'export'
                __authctl_parse_subcommand 0 'format=' 'keystore=' 'config=' 'user=' 'json' 'v/verbose' 'q/quiet' 'version' 'h/help'
            case 'import'
                __authctl_parse_subcommand 1 'keystore=' 'config=' 'user=' 'json' 'v/verbose' 'q/quiet' 'version' 'h/help'
            case 'photo'
                __authctl_parse_subcommand 0 'o/output=' 'keystore=' 'config=' 'user=' 'json' 'v/verbose' 'q/quiet' 'version' 'h/help'
            end
        case 'keystore'
            __authctl_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'status'
                __authctl_parse_subcommand 0 'keystore=' 'config=' 'user=' 'json' 'v/verbose' 'q/quiet' 'version' 'h/help'
            case 'seal'
                __authctl_parse_subcommand 0 'key-file=' 'passphrase-env=' 'passphrase-file=' 'keyring' 'keystore=' 'config=' 'user=' 'json' 'v/verbose' 'q/quiet' 'version' 'h/help'
            case 'unseal'
                __authctl_parse_subcommand 0 'y/yes' 'keystore=' 'config=' 'user=' 'json' 'v/verbose' 'q/quiet' 'version' 'h/help'
            case 'rekey'
                __authctl_parse_subcommand 0 'key-file=' 'passphrase-env=' 'passphrase-file=' 'keyring' 'keystore=' 'config=' 'user=' 'json' 'v/verbose' 'q/quiet' 'version' 'h/help'
            case 'new-key'
                __authctl_parse_subcommand 0 'keystore=' 'config=' 'user=' 'json' 'v/verbose' 'q/quiet' 'version' 'h/help'
            end
        case 'unlock'
            __authctl_parse_subcommand 0 'for=' 'keystore=' 'config=' 'user=' 'json' 'v/verbose' 'q/quiet' 'version' 'h/help'
        case 'lock'
            __authctl_parse_subcommand 0 'keystore=' 'config=' 'user=' 'json' 'v/verbose' 'q/quiet' 'version' 'h/help'
        case 'backend'
            __authctl_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'use'
                __authctl_parse_subcommand 1 'project=' 'api-key=' 'tenant-id=' 'emulator=' 'keystore=' 'config=' 'user=' 'json' 'v/verbose' 'q/quiet' 'version' 'h/help'
            case 'show'
                __authctl_parse_subcommand 0 'keystore=' 'config=' 'user=' 'json' 'v/verbose' 'q/quiet' 'version' 'h/help'
            end
        case 'version'
            __authctl_parse_subcommand 0 'keystore=' 'config=' 'user=' 'json' 'v/verbose' 'q/quiet' 'version' 'h/help'
        case 'completion'
            __authctl_parse_subcommand 1 'keystore=' 'config=' 'user=' 'json' 'v/verbose' 'q/quiet' 'version' 'h/help'
        case 'doctor'
            __authctl_parse_subcommand 1 'keystore=' 'config=' 'user=' 'json' 'v/verbose' 'q/quiet' 'version' 'h/help'
        case 'aws-credentials'
            __authctl_parse_subcommand 0 'role-arn=' 'duration=' 'session-name=' 'sts-endpoint=' 'region=' 'audience=' 'subject-token-type=' 'provider=' 'force-refresh' 'keystore=' 'config=' 'user=' 'json' 'v/verbose' 'q/quiet' 'version' 'h/help'
        case 'gcp-token'
            __authctl_parse_subcommand 0 'audience=' 'subject-token-type=' 'provider=' 'keystore=' 'config=' 'user=' 'json' 'v/verbose' 'q/quiet' 'version' 'h/help'
        case 'rules'
            __authctl_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'add'
                __authctl_parse_subcommand 0 'name=' 'provider=' 'directory=' 'remote=' 'kube-context=' 'env=' 'position=' 'allow-unknown-user' 'keystore=' 'config=' 'user=' 'json' 'v/verbose' 'q/quiet' 'version' 'h/help'
            case 'list'
                __authctl_parse_subcommand 0 'keystore=' 'config=' 'user=' 'json' 'v/verbose' 'q/quiet' 'version' 'h/help'
            case 'remove'
                __authctl_parse_subcommand 1 'keystore=' 'config=' 'user=' 'json' 'v/verbose' 'q/quiet' 'version' 'h/help'
            case 'explain'
                __authctl_parse_subcommand 0 'remote=' 'keystore=' 'config=' 'user=' 'json' 'v/verbose' 'q/quiet' 'version' 'h/help'
            end
        case 'kubeconfig'
            __authctl_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'set-credentials'
                __authctl_parse_subcommand 1 'provider=' 'kubeconfig=' 'command=' 'dry-run' 'keystore=' 'config=' 'user=' 'json' 'v/verbose' 'q/quiet' 'version' 'h/help'
            end
        case 'help'
            __authctl_parse_subcommand -r 1 'version'
        end
    end
end

function __authctl_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __authctl_parse_subcommand -S -a positional_count
    argparse -s r -- $argv
    set -l option_specs $argv[2..]
    set -l is_repeating_positional $_flag_r
    set -el _flag_r
    set -a commands $unparsed_tokens[1]
    set positional_index 0
    while true
        set -e unparsed_tokens[1]
        argparse -sn "$commands" $option_specs -- $unparsed_tokens 2> /dev/null
        set unparsed_tokens $argv
        set positional_index (math $positional_index + 1)
        for non_repeating_flag_or_option in $non_repeating_flags_or_options
            if set -ql "_flag_$(string replace -a - _ -- $non_repeating_flag_or_option)"
                set non_repeating_flags_or_options_absent 1
                break
            end
        end
        test (count $unparsed_tokens) -eq 0 -o \( -z "$is_repeating_positional" -a "$positional_index" -gt "$positional_count" \) && break
    end
end

function __authctl_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __authctl_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__authctl_tokens -p)
    if test -z "$(__authctl_tokens -t)"
        set -l index (count (__authctl_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'authctl' -f
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl" version' -l 'version' -d 'Show the version.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_positional "authctl" -eq 1' -fa 'login' -d 'Sign in to a provider through the browser (or with an ID token, or a pending credential).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_positional "authctl" -eq 1' -fa 'link' -d 'Link another provider to the current user.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_positional "authctl" -eq 1' -fa 'reauth' -d 'Sign in again with an identity the current user already has: fresh tokens and a recent sign-in time.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_positional "authctl" -eq 1' -fa 'unlink' -d 'Remove a provider (and its tokens) from the current user.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_positional "authctl" -eq 1' -fa 'status' -d 'Show who is signed in, the linked providers and token lifetimes.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_positional "authctl" -eq 1' -fa 'token' -d 'Print a valid access token (or ID token) of the current user.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_positional "authctl" -eq 1' -fa 'exec' -d 'Run a command with a valid token in AUTHCTL_TOKEN, kept valid for as long as it runs.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_positional "authctl" -eq 1' -fa 'git-credential' -d 'A git credential helper: answers git with the current user\'s fresh access token.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_positional "authctl" -eq 1' -fa 'signout' -d 'End the session: drop the tokens and clear the current user (alias: logout).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_positional "authctl" -eq 1' -fa 'request' -d 'Send an HTTP request to a protected resource with the token of its grant.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_positional "authctl" -eq 1' -fa 'bootstrap' -d 'Finish the browser part of a \'login --remote\' started on another machine.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_positional "authctl" -eq 1' -fa 'providers' -d 'Register and inspect providers (configuration, not accounts).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_positional "authctl" -eq 1' -fa 'users' -d 'List, show, switch between, delete, export and import the users in the keystore; fetch the current user\'s photo.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_positional "authctl" -eq 1' -fa 'keystore' -d 'Seal the keystore\'s tokens at rest (a key file, a passphrase or the keyring), unseal it, change its key.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_positional "authctl" -eq 1' -fa 'unlock' -d 'Keep the sealed keystore\'s key in the kernel keyring for a while (15m by default), for kubectl, git and other programs that cannot answer a prompt.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_positional "authctl" -eq 1' -fa 'lock' -d 'Forget the keystore\'s key that authctl unlock kept in the kernel keyring, before its time is up (from any of your sessions).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_positional "authctl" -eq 1' -fa 'backend' -d 'Choose where users live: the local keystore (default) or a Firebase project.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_positional "authctl" -eq 1' -fa 'version' -d 'Print the version and the commit authctl was built from (as --version does).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_positional "authctl" -eq 1' -fa 'completion' -d 'Print the shell completion script for bash, zsh or fish.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_positional "authctl" -eq 1' -fa 'doctor' -d 'Check a provider and this machine for what would make a sign-in fail, and say the fix.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_positional "authctl" -eq 1' -fa 'aws-credentials' -d 'Print AWS credentials for a role, from STS AssumeRoleWithWebIdentity with the current identity (credential_process).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_positional "authctl" -eq 1' -fa 'gcp-token' -d 'Print the current identity\'s token as Google\'s executable-sourced credential response (workload identity federation).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_positional "authctl" -eq 1' -fa 'rules' -d 'Choose the identity by where a command runs: directory, git remote, kube context, environment.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_positional "authctl" -eq 1' -fa 'kubeconfig' -d 'Set up kubectl to get its tokens from authctl.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_positional "authctl" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_positional "authctl login" -eq 1' -fka '(__authctl_custom_completion ---completion login -- positional@0 (count (__authctl_tokens -pc)) (__authctl_tokens -tC))'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl login"' -l 'scope' -d 'A scope to ask beside the defaults (repeatable).' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl login"' -l 'param' -d 'A custom authorization parameter, e.g. prompt=login (repeatable).' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl login" browser-command' -l 'browser-command' -d 'Open the URL with this command (split on white space, URL appended; env AUTHCTL_BROWSER).' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl login" no-browser' -l 'no-browser' -d 'Do not open a browser: print the URL (the redirect still comes back to this machine).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl login" device-code' -l 'device-code' -d 'Sign in on another device: show a code and a URL, and wait for the approval (RFC 8628; where the provider offers it).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl login" manual' -l 'manual' -d 'Print the URL, then read the redirect URL the browser ended on (or the posted form body) from stdin.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl login" remote' -l 'remote' -d 'Sign in with a browser on another machine: print an \'authctl bootstrap\' command to run there, then read the line it prints from stdin.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl login" ciba' -l 'ciba' -d 'Sign in by CIBA (poll mode): the provider asks the person named by --login-hint to approve on their own device; nothing to open or paste.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl login" login-hint' -l 'login-hint' -d 'With --ciba: who signs in, in the provider\'s format (an e-mail address, a user name; Glewlwyd: {"username":"NAME"}).' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl login" binding-message' -l 'binding-message' -d 'With --ciba: the short text the person sees on their device (default: two words and a number).' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl login" timeout' -l 'timeout' -d 'Seconds to wait for the sign-in to finish (browser redirect or device approval).' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl login" listen-address' -l 'listen-address' -d 'Where the redirect listener binds (a loopback HOST:PORT).' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl login" redirect-uri' -l 'redirect-uri' -d 'The redirect URI to send (default http://127.0.0.1:PORT/callback; microsoft.com: http://localhost:PORT).' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl login" allow-any-local-user' -l 'allow-any-local-user' -d 'Let other local users\' processes reach the redirect listener (env AUTHCTL_ALLOW_ANY_LOCAL_USER=1): only where the browser\'s connection is relayed by another user\'s process (WSL, some containers).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl login" tenant' -l 'tenant' -d 'microsoft.com: the tenant of this sign-in (common, organizations, consumers, a tenant id or domain).' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl login" authorization-details' -l 'authorization-details' -d 'Rich authorization (RFC 9396): a JSON array of objects with a "type", or @FILE holding one; kept with the grant.' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl login" id-token' -l 'id-token' -d 'Sign in with an ID token obtained elsewhere, read from stdin: --id-token -' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl login" raw-nonce' -l 'raw-nonce' -d 'The nonce the --id-token was requested with (it must match).' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl login" client-credentials' -l 'client-credentials' -d 'Sign in as the client itself (a CI job, a service): the client-credentials grant, no browser. See ci.md in the documentation (man authctl, FILES).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl login" jwt-bearer' -l 'jwt-bearer' -d 'Sign in as a workload by the JWT-bearer grant (RFC 7523): its token from --federated-token-file, --federated-token-env or --federated-token is the grant, no browser. See ci.md in the documentation.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl login" client-id' -l 'client-id' -d 'With --client-credentials or --jwt-bearer: the client (app) id, instead of the provider\'s configured one.' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl login" client-secret-env' -l 'client-secret-env' -d 'With --client-credentials or --jwt-bearer: the environment variable that holds the client secret (default: the provider\'s configured secret, when no other option is given).' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl login" client-secret-file' -l 'client-secret-file' -d 'With --client-credentials or --jwt-bearer: a file that holds the client secret.' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl login" certificate-file' -l 'certificate-file' -d 'With --client-credentials or --jwt-bearer: a PEM with the private key and its certificate (private_key_jwt, RFC 7523); mode 0600.' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl login" assertion-algorithm' -l 'assertion-algorithm' -d 'With --certificate-file: the assertion\'s algorithm (RS256 or PS256 for an RSA key, ES256 for a P-256 key; default by the key).' -rfka 'RS256 PS256 ES256'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl login" federated-token-file' -l 'federated-token-file' -d 'With --client-credentials or --jwt-bearer: a file with a federated token (a JWT from another issuer), read again at every grant.' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl login" federated-token-env' -l 'federated-token-env' -d 'With --client-credentials or --jwt-bearer: the environment variable that holds a federated token.' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl login" federated-token' -l 'federated-token' -d 'With --client-credentials or --jwt-bearer: fetch the federated token from the CI service at every grant.' -rfka 'github-actions'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl login" federated-audience' -l 'federated-audience' -d 'The audience to ask of the CI service\'s token (default: the server\'s issuer with --jwt-bearer; api://AzureADTokenExchange for microsoft.com).' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl login" credential' -l 'credential' -d 'Apply a pending credential (its pc_ handle) saved by an earlier credential-already-in-use error.' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl login" issuer' -l 'issuer' -d 'With a resource\'s URL: the authorization server to sign in at, one of those the resource lists (default: the first).' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl login" client-metadata-url' -l 'client-metadata-url' -d 'With a resource\'s URL: the https URL of your client ID metadata document, used as the client id where the server supports them.' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl login" provider' -l 'provider' -d 'With a resource\'s URL: sign in through this configured provider, a client of the resource\'s server; naming it is your consent to use it for a resource on another origin.' -rfka '(__authctl_custom_completion ---completion login -- --provider (count (__authctl_tokens -pc)) (__authctl_tokens -tC))'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl login" via' -l 'via' -d 'With a resource\'s URL: no browser; exchange your identity at this provider (your company\'s identity provider) for a grant the resource\'s authorization server trusts (identity chaining).' -rfka '(__authctl_custom_completion ---completion login -- --via (count (__authctl_tokens -pc)) (__authctl_tokens -tC))'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl login" requested-token-type' -l 'requested-token-type' -d 'With --via: the grant to ask the provider for, id-jag (default) or jwt.' -rfka 'id-jag jwt'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl login" keystore' -l 'keystore' -d 'The keystore file (env AUTHCTL_KEYSTORE; default $XDG_DATA_HOME/authctl/keystore.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl login" config' -l 'config' -d 'The configuration file (env AUTHCTL_CONFIG; default $XDG_CONFIG_HOME/authctl/config.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl login" user' -l 'user' -d 'The user whose token a command reads (token, request, exec, git-credential, aws-credentials, gcp-token, status, users photo), by uid or email, without making it the current user (env AUTHCTL_USER; overrides config.json\'s rules). Other commands refuse it.' -rfka '(__authctl_custom_completion ---completion login -- --user (count (__authctl_tokens -pc)) (__authctl_tokens -tC))'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl login" json' -l 'json' -d 'Print exactly one JSON document on stdout (the result or the error).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl login" v verbose' -l 'verbose' -s 'v' -d 'Log each HTTP exchange (method, host, path, status, duration) to stderr; secrets are never logged.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl login" q quiet' -l 'quiet' -s 'q' -d 'Print no progress lines.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl login" version' -l 'version' -d 'Show the version.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl login" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_positional "authctl link" -eq 1' -fka '(__authctl_custom_completion ---completion link -- positional@0 (count (__authctl_tokens -pc)) (__authctl_tokens -tC))'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl link"' -l 'scope' -d 'A scope to ask beside the defaults (repeatable).' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl link"' -l 'param' -d 'A custom authorization parameter, e.g. prompt=login (repeatable).' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl link" browser-command' -l 'browser-command' -d 'Open the URL with this command (split on white space, URL appended; env AUTHCTL_BROWSER).' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl link" no-browser' -l 'no-browser' -d 'Do not open a browser: print the URL (the redirect still comes back to this machine).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl link" device-code' -l 'device-code' -d 'Sign in on another device: show a code and a URL, and wait for the approval (RFC 8628; where the provider offers it).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl link" manual' -l 'manual' -d 'Print the URL, then read the redirect URL the browser ended on (or the posted form body) from stdin.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl link" remote' -l 'remote' -d 'Sign in with a browser on another machine: print an \'authctl bootstrap\' command to run there, then read the line it prints from stdin.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl link" ciba' -l 'ciba' -d 'Sign in by CIBA (poll mode): the provider asks the person named by --login-hint to approve on their own device; nothing to open or paste.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl link" login-hint' -l 'login-hint' -d 'With --ciba: who signs in, in the provider\'s format (an e-mail address, a user name; Glewlwyd: {"username":"NAME"}).' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl link" binding-message' -l 'binding-message' -d 'With --ciba: the short text the person sees on their device (default: two words and a number).' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl link" timeout' -l 'timeout' -d 'Seconds to wait for the sign-in to finish (browser redirect or device approval).' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl link" listen-address' -l 'listen-address' -d 'Where the redirect listener binds (a loopback HOST:PORT).' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl link" redirect-uri' -l 'redirect-uri' -d 'The redirect URI to send (default http://127.0.0.1:PORT/callback; microsoft.com: http://localhost:PORT).' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl link" allow-any-local-user' -l 'allow-any-local-user' -d 'Let other local users\' processes reach the redirect listener (env AUTHCTL_ALLOW_ANY_LOCAL_USER=1): only where the browser\'s connection is relayed by another user\'s process (WSL, some containers).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl link" tenant' -l 'tenant' -d 'microsoft.com: the tenant of this sign-in (common, organizations, consumers, a tenant id or domain).' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl link" authorization-details' -l 'authorization-details' -d 'Rich authorization (RFC 9396): a JSON array of objects with a "type", or @FILE holding one; kept with the grant.' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl link" id-token' -l 'id-token' -d 'Sign in with an ID token obtained elsewhere, read from stdin: --id-token -' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl link" raw-nonce' -l 'raw-nonce' -d 'The nonce the --id-token was requested with (it must match).' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl link" pending' -l 'pending' -d 'Link a pending credential (its pc_ handle).' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl link" consent' -l 'consent' -d 'Agree to link a private-relay (hidden email) identity with another one, without being asked.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl link" keystore' -l 'keystore' -d 'The keystore file (env AUTHCTL_KEYSTORE; default $XDG_DATA_HOME/authctl/keystore.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl link" config' -l 'config' -d 'The configuration file (env AUTHCTL_CONFIG; default $XDG_CONFIG_HOME/authctl/config.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl link" user' -l 'user' -d 'The user whose token a command reads (token, request, exec, git-credential, aws-credentials, gcp-token, status, users photo), by uid or email, without making it the current user (env AUTHCTL_USER; overrides config.json\'s rules). Other commands refuse it.' -rfka '(__authctl_custom_completion ---completion link -- --user (count (__authctl_tokens -pc)) (__authctl_tokens -tC))'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl link" json' -l 'json' -d 'Print exactly one JSON document on stdout (the result or the error).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl link" v verbose' -l 'verbose' -s 'v' -d 'Log each HTTP exchange (method, host, path, status, duration) to stderr; secrets are never logged.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl link" q quiet' -l 'quiet' -s 'q' -d 'Print no progress lines.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl link" version' -l 'version' -d 'Show the version.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl link" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_positional "authctl reauth" -eq 1' -fka '(__authctl_custom_completion ---completion reauth -- positional@0 (count (__authctl_tokens -pc)) (__authctl_tokens -tC))'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl reauth"' -l 'scope' -d 'A scope to ask beside the defaults (repeatable).' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl reauth"' -l 'param' -d 'A custom authorization parameter, e.g. prompt=login (repeatable).' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl reauth" browser-command' -l 'browser-command' -d 'Open the URL with this command (split on white space, URL appended; env AUTHCTL_BROWSER).' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl reauth" no-browser' -l 'no-browser' -d 'Do not open a browser: print the URL (the redirect still comes back to this machine).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl reauth" device-code' -l 'device-code' -d 'Sign in on another device: show a code and a URL, and wait for the approval (RFC 8628; where the provider offers it).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl reauth" manual' -l 'manual' -d 'Print the URL, then read the redirect URL the browser ended on (or the posted form body) from stdin.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl reauth" remote' -l 'remote' -d 'Sign in with a browser on another machine: print an \'authctl bootstrap\' command to run there, then read the line it prints from stdin.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl reauth" ciba' -l 'ciba' -d 'Sign in by CIBA (poll mode): the provider asks the person named by --login-hint to approve on their own device; nothing to open or paste.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl reauth" login-hint' -l 'login-hint' -d 'With --ciba: who signs in, in the provider\'s format (an e-mail address, a user name; Glewlwyd: {"username":"NAME"}).' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl reauth" binding-message' -l 'binding-message' -d 'With --ciba: the short text the person sees on their device (default: two words and a number).' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl reauth" timeout' -l 'timeout' -d 'Seconds to wait for the sign-in to finish (browser redirect or device approval).' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl reauth" listen-address' -l 'listen-address' -d 'Where the redirect listener binds (a loopback HOST:PORT).' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl reauth" redirect-uri' -l 'redirect-uri' -d 'The redirect URI to send (default http://127.0.0.1:PORT/callback; microsoft.com: http://localhost:PORT).' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl reauth" allow-any-local-user' -l 'allow-any-local-user' -d 'Let other local users\' processes reach the redirect listener (env AUTHCTL_ALLOW_ANY_LOCAL_USER=1): only where the browser\'s connection is relayed by another user\'s process (WSL, some containers).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl reauth" tenant' -l 'tenant' -d 'microsoft.com: the tenant of this sign-in (common, organizations, consumers, a tenant id or domain).' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl reauth" authorization-details' -l 'authorization-details' -d 'Rich authorization (RFC 9396): a JSON array of objects with a "type", or @FILE holding one; kept with the grant.' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl reauth" id-token' -l 'id-token' -d 'Sign in with an ID token obtained elsewhere, read from stdin: --id-token -' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl reauth" raw-nonce' -l 'raw-nonce' -d 'The nonce the --id-token was requested with (it must match).' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl reauth" keystore' -l 'keystore' -d 'The keystore file (env AUTHCTL_KEYSTORE; default $XDG_DATA_HOME/authctl/keystore.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl reauth" config' -l 'config' -d 'The configuration file (env AUTHCTL_CONFIG; default $XDG_CONFIG_HOME/authctl/config.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl reauth" user' -l 'user' -d 'The user whose token a command reads (token, request, exec, git-credential, aws-credentials, gcp-token, status, users photo), by uid or email, without making it the current user (env AUTHCTL_USER; overrides config.json\'s rules). Other commands refuse it.' -rfka '(__authctl_custom_completion ---completion reauth -- --user (count (__authctl_tokens -pc)) (__authctl_tokens -tC))'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl reauth" json' -l 'json' -d 'Print exactly one JSON document on stdout (the result or the error).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl reauth" v verbose' -l 'verbose' -s 'v' -d 'Log each HTTP exchange (method, host, path, status, duration) to stderr; secrets are never logged.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl reauth" q quiet' -l 'quiet' -s 'q' -d 'Print no progress lines.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl reauth" version' -l 'version' -d 'Show the version.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl reauth" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_positional "authctl unlink" -eq 1' -fka '(__authctl_custom_completion ---completion unlink -- positional@0 (count (__authctl_tokens -pc)) (__authctl_tokens -tC))'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl unlink" keystore' -l 'keystore' -d 'The keystore file (env AUTHCTL_KEYSTORE; default $XDG_DATA_HOME/authctl/keystore.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl unlink" config' -l 'config' -d 'The configuration file (env AUTHCTL_CONFIG; default $XDG_CONFIG_HOME/authctl/config.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl unlink" user' -l 'user' -d 'The user whose token a command reads (token, request, exec, git-credential, aws-credentials, gcp-token, status, users photo), by uid or email, without making it the current user (env AUTHCTL_USER; overrides config.json\'s rules). Other commands refuse it.' -rfka '(__authctl_custom_completion ---completion unlink -- --user (count (__authctl_tokens -pc)) (__authctl_tokens -tC))'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl unlink" json' -l 'json' -d 'Print exactly one JSON document on stdout (the result or the error).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl unlink" v verbose' -l 'verbose' -s 'v' -d 'Log each HTTP exchange (method, host, path, status, duration) to stderr; secrets are never logged.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl unlink" q quiet' -l 'quiet' -s 'q' -d 'Print no progress lines.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl unlink" version' -l 'version' -d 'Show the version.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl unlink" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl status" check' -l 'check' -d 'Also ask the provider whether the session is still active (introspection, else userinfo).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl status" keystore' -l 'keystore' -d 'The keystore file (env AUTHCTL_KEYSTORE; default $XDG_DATA_HOME/authctl/keystore.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl status" config' -l 'config' -d 'The configuration file (env AUTHCTL_CONFIG; default $XDG_CONFIG_HOME/authctl/config.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl status" user' -l 'user' -d 'The user whose token a command reads (token, request, exec, git-credential, aws-credentials, gcp-token, status, users photo), by uid or email, without making it the current user (env AUTHCTL_USER; overrides config.json\'s rules). Other commands refuse it.' -rfka '(__authctl_custom_completion ---completion status -- --user (count (__authctl_tokens -pc)) (__authctl_tokens -tC))'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl status" json' -l 'json' -d 'Print exactly one JSON document on stdout (the result or the error).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl status" v verbose' -l 'verbose' -s 'v' -d 'Log each HTTP exchange (method, host, path, status, duration) to stderr; secrets are never logged.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl status" q quiet' -l 'quiet' -s 'q' -d 'Print no progress lines.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl status" version' -l 'version' -d 'Show the version.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl status" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_positional "authctl token" -eq 1' -fka '(__authctl_custom_completion ---completion token -- positional@0 (count (__authctl_tokens -pc)) (__authctl_tokens -tC))'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl token" id-token' -l 'id-token' -d 'Print the ID token instead of the access token.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl token" access-token' -l 'access-token' -d 'Print the access token even with --format kubectl-exec (which gives the ID token, what a Kubernetes API server checks).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl token" min-ttl' -l 'min-ttl' -d 'Refresh when the token expires within this many seconds.' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl token" force-refresh' -l 'force-refresh' -d 'Refresh even when the cached token is still valid.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl token" format' -l 'format' -d 'How to print the token: raw, json, header, env, kubectl-exec (an ExecCredential with the ID token), headers-json (a JSON object of the request\'s headers, for agents\' header helpers).' -rfka 'raw json header env kubectl-exec headers-json'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl token"' -l 'scope' -d 'Print an access token for these scopes instead, obtained with the refresh token and cached (repeatable; Microsoft: another resource, e.g. https://graph.microsoft.com/.default).' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl token" method' -l 'method' -d 'The method of the request the token is for: with --url, a DPoP-bound token gets a proof for that request (RFC 9449).' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl token" url' -l 'url' -d 'The URL of the request the token is for (with --method).' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl token" exchange' -l 'exchange' -d 'Exchange the identity\'s token at its provider for a token for --audience or --resource (RFC 8693), cached until it expires.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl token" audience' -l 'audience' -d 'With --exchange: the token\'s audience, a name the provider knows.' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl token" resource' -l 'resource' -d 'With --exchange: the resource (an absolute URL) the token is for. Without: the token of the current user\'s grant for this resource URL (signed in with: authctl login URL).' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl token" requested-token-type' -l 'requested-token-type' -d 'With --exchange: the type of token asked: access_token, id_token, jwt, or a URN.' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl token" subject-token-type' -l 'subject-token-type' -d 'With --exchange: the identity\'s token given in exchange: access_token (default) or id_token.' -rfka 'access_token id_token'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl token" actor-token-file' -l 'actor-token-file' -d 'With --exchange: a file holding the actor token (delegation), read afresh each time.' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl token" actor-token-env' -l 'actor-token-env' -d 'With --exchange: an environment variable holding the actor token (delegation).' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl token" actor-token-type' -l 'actor-token-type' -d 'With an actor token: its type (default jwt): access_token, id_token, jwt, or a URN.' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl token" output-file' -l 'output-file' -d 'Write the token alone (no newline) to this file, mode 0600, atomically, instead of stdout (Azure\'s AZURE_FEDERATED_TOKEN_FILE).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl token" keystore' -l 'keystore' -d 'The keystore file (env AUTHCTL_KEYSTORE; default $XDG_DATA_HOME/authctl/keystore.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl token" config' -l 'config' -d 'The configuration file (env AUTHCTL_CONFIG; default $XDG_CONFIG_HOME/authctl/config.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl token" user' -l 'user' -d 'The user whose token a command reads (token, request, exec, git-credential, aws-credentials, gcp-token, status, users photo), by uid or email, without making it the current user (env AUTHCTL_USER; overrides config.json\'s rules). Other commands refuse it.' -rfka '(__authctl_custom_completion ---completion token -- --user (count (__authctl_tokens -pc)) (__authctl_tokens -tC))'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl token" json' -l 'json' -d 'Print exactly one JSON document on stdout (the result or the error).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl token" v verbose' -l 'verbose' -s 'v' -d 'Log each HTTP exchange (method, host, path, status, duration) to stderr; secrets are never logged.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl token" q quiet' -l 'quiet' -s 'q' -d 'Print no progress lines.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl token" version' -l 'version' -d 'Show the version.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl token" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl exec" provider' -l 'provider' -d 'The provider whose token to use (default: the one of the last sign-in).' -rfka '(__authctl_custom_completion ---completion exec -- --provider (count (__authctl_tokens -pc)) (__authctl_tokens -tC))'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl exec"' -l 'scope' -d 'Ask a token for these scopes instead (repeatable).' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl exec" id-token' -l 'id-token' -d 'Give the ID token instead of the access token (Azure workload identity: AZURE_FEDERATED_TOKEN_FILE=$AUTHCTL_TOKEN_FILE).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl exec" keystore' -l 'keystore' -d 'The keystore file (env AUTHCTL_KEYSTORE; default $XDG_DATA_HOME/authctl/keystore.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl exec" config' -l 'config' -d 'The configuration file (env AUTHCTL_CONFIG; default $XDG_CONFIG_HOME/authctl/config.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl exec" user' -l 'user' -d 'The user whose token a command reads (token, request, exec, git-credential, aws-credentials, gcp-token, status, users photo), by uid or email, without making it the current user (env AUTHCTL_USER; overrides config.json\'s rules). Other commands refuse it.' -rfka '(__authctl_custom_completion ---completion exec -- --user (count (__authctl_tokens -pc)) (__authctl_tokens -tC))'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl exec" json' -l 'json' -d 'Print exactly one JSON document on stdout (the result or the error).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl exec" v verbose' -l 'verbose' -s 'v' -d 'Log each HTTP exchange (method, host, path, status, duration) to stderr; secrets are never logged.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl exec" q quiet' -l 'quiet' -s 'q' -d 'Print no progress lines.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl exec" version' -l 'version' -d 'Show the version.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl exec" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl git-credential" keystore' -l 'keystore' -d 'The keystore file (env AUTHCTL_KEYSTORE; default $XDG_DATA_HOME/authctl/keystore.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl git-credential" config' -l 'config' -d 'The configuration file (env AUTHCTL_CONFIG; default $XDG_CONFIG_HOME/authctl/config.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl git-credential" user' -l 'user' -d 'The user whose token a command reads (token, request, exec, git-credential, aws-credentials, gcp-token, status, users photo), by uid or email, without making it the current user (env AUTHCTL_USER; overrides config.json\'s rules). Other commands refuse it.' -rfka '(__authctl_custom_completion ---completion git-credential -- --user (count (__authctl_tokens -pc)) (__authctl_tokens -tC))'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl git-credential" json' -l 'json' -d 'Print exactly one JSON document on stdout (the result or the error).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl git-credential" v verbose' -l 'verbose' -s 'v' -d 'Log each HTTP exchange (method, host, path, status, duration) to stderr; secrets are never logged.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl git-credential" q quiet' -l 'quiet' -s 'q' -d 'Print no progress lines.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_positional "authctl git-credential" -eq 1' -fka '(__authctl_custom_completion ---completion git-credential -- positional@0 (count (__authctl_tokens -pc)) (__authctl_tokens -tC))'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl git-credential"' -l 'scope' -d 'Give an access token for these scopes (repeatable; Azure DevOps: 499b84ac-1321-427f-aa17-267ca6975798/.default).' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl git-credential" version' -l 'version' -d 'Show the version.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl git-credential" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl signout" all' -l 'all' -d 'Sign out every user, not only the current one.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl signout" revoke' -l 'revoke' -d 'First revoke the refresh tokens at providers that support it, and report each result.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl signout" keystore' -l 'keystore' -d 'The keystore file (env AUTHCTL_KEYSTORE; default $XDG_DATA_HOME/authctl/keystore.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl signout" config' -l 'config' -d 'The configuration file (env AUTHCTL_CONFIG; default $XDG_CONFIG_HOME/authctl/config.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl signout" user' -l 'user' -d 'The user whose token a command reads (token, request, exec, git-credential, aws-credentials, gcp-token, status, users photo), by uid or email, without making it the current user (env AUTHCTL_USER; overrides config.json\'s rules). Other commands refuse it.' -rfka '(__authctl_custom_completion ---completion signout -- --user (count (__authctl_tokens -pc)) (__authctl_tokens -tC))'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl signout" json' -l 'json' -d 'Print exactly one JSON document on stdout (the result or the error).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl signout" v verbose' -l 'verbose' -s 'v' -d 'Log each HTTP exchange (method, host, path, status, duration) to stderr; secrets are never logged.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl signout" q quiet' -l 'quiet' -s 'q' -d 'Print no progress lines.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl signout" version' -l 'version' -d 'Show the version.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl signout" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl request" X method' -s 'X' -l 'method' -d 'The HTTP method (default GET, POST with --data).' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl request"' -s 'H' -l 'header' -d 'A request header \'Name: value\' (repeatable).' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl request" data' -l 'data' -d 'The request body: @FILE, - (stdin), or the text itself.' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl request" include' -l 'include' -d 'Print the status line and the response headers before the body.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl request" browser-command' -l 'browser-command' -d 'For a step-up: open the URL with this command (env AUTHCTL_BROWSER).' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl request" timeout' -l 'timeout' -d 'Seconds to wait for a step-up\'s sign-in.' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl request" keystore' -l 'keystore' -d 'The keystore file (env AUTHCTL_KEYSTORE; default $XDG_DATA_HOME/authctl/keystore.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl request" config' -l 'config' -d 'The configuration file (env AUTHCTL_CONFIG; default $XDG_CONFIG_HOME/authctl/config.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl request" user' -l 'user' -d 'The user whose token a command reads (token, request, exec, git-credential, aws-credentials, gcp-token, status, users photo), by uid or email, without making it the current user (env AUTHCTL_USER; overrides config.json\'s rules). Other commands refuse it.' -rfka '(__authctl_custom_completion ---completion request -- --user (count (__authctl_tokens -pc)) (__authctl_tokens -tC))'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl request" json' -l 'json' -d 'Print exactly one JSON document on stdout (the result or the error).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl request" v verbose' -l 'verbose' -s 'v' -d 'Log each HTTP exchange (method, host, path, status, duration) to stderr; secrets are never logged.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl request" q quiet' -l 'quiet' -s 'q' -d 'Print no progress lines.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl request" version' -l 'version' -d 'Show the version.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl request" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl bootstrap" browser-command' -l 'browser-command' -d 'Open the URL with this command (split on white space, URL appended; env AUTHCTL_BROWSER).' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl bootstrap" timeout' -l 'timeout' -d 'Seconds to wait for the browser\'s redirect.' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl bootstrap" allow-any-local-user' -l 'allow-any-local-user' -d 'Let other local users\' processes reach the redirect listener (env AUTHCTL_ALLOW_ANY_LOCAL_USER=1): only where the browser\'s connection is relayed by another user\'s process (WSL, some containers).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl bootstrap" keystore' -l 'keystore' -d 'The keystore file (env AUTHCTL_KEYSTORE; default $XDG_DATA_HOME/authctl/keystore.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl bootstrap" config' -l 'config' -d 'The configuration file (env AUTHCTL_CONFIG; default $XDG_CONFIG_HOME/authctl/config.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl bootstrap" user' -l 'user' -d 'The user whose token a command reads (token, request, exec, git-credential, aws-credentials, gcp-token, status, users photo), by uid or email, without making it the current user (env AUTHCTL_USER; overrides config.json\'s rules). Other commands refuse it.' -rfka '(__authctl_custom_completion ---completion bootstrap -- --user (count (__authctl_tokens -pc)) (__authctl_tokens -tC))'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl bootstrap" json' -l 'json' -d 'Print exactly one JSON document on stdout (the result or the error).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl bootstrap" v verbose' -l 'verbose' -s 'v' -d 'Log each HTTP exchange (method, host, path, status, duration) to stderr; secrets are never logged.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl bootstrap" q quiet' -l 'quiet' -s 'q' -d 'Print no progress lines.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl bootstrap" version' -l 'version' -d 'Show the version.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl bootstrap" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl providers" version' -l 'version' -d 'Show the version.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl providers" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_positional "authctl providers" -eq 1' -fa 'add' -d 'Register or update a provider.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_positional "authctl providers" -eq 1' -fa 'list' -d 'List the registered providers.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_positional "authctl providers" -eq 1' -fa 'show' -d 'Show a provider\'s configuration.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_positional "authctl providers" -eq 1' -fa 'remove' -d 'Remove a provider\'s configuration (accounts stay in the keystore).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl providers add" preset' -l 'preset' -d 'Build the issuer of this oidc.* provider from a preset: google, gitlab, okta, auth0 or keycloak.' -rfka 'google gitlab okta auth0 keycloak'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl providers add" domain' -l 'domain' -d 'Presets: the provider\'s domain (https:// is added; http:// is allowed on loopback only).' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl providers add" realm' -l 'realm' -d 'keycloak preset: the realm.' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl providers add" authorization-server' -l 'authorization-server' -d 'okta preset: a custom authorization server\'s id.' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl providers add" client-id' -l 'client-id' -d 'The client id registered at the provider.' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl providers add" client-secret-env' -l 'client-secret-env' -d 'An environment variable holding the client secret.' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl providers add" client-secret-file' -l 'client-secret-file' -d 'A file (mode 0600) holding the client secret.' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl providers add" client-certificate-file' -l 'client-certificate-file' -d 'A PEM (mode 0600) with the client\'s private key, and for Microsoft its certificate: the client authenticates by private_key_jwt (RFC 7523).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl providers add"' -l 'scope' -d 'A default scope (repeatable).' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl providers add"' -l 'param' -d 'A default custom parameter (repeatable).' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl providers add" redirect-uri' -l 'redirect-uri' -d 'The redirect URI to send (a loopback URI with a port fixes the listening port).' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl providers add" listen-address' -l 'listen-address' -d 'Where the redirect listener binds.' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl providers add" issuer' -l 'issuer' -d 'oidc.*: the issuer URL (discovery at ISSUER/.well-known/openid-configuration); apple.com: default https://appleid.apple.com (tests).' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl providers add" flow' -l 'flow' -d 'oidc.*: code (default) or implicit.' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl providers add" dpop' -l 'dpop' -d 'DPoP-bound tokens (RFC 9449): auto (default: when the provider offers them), always or never.' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl providers add" par' -l 'par' -d 'Pushed authorization requests (RFC 9126): auto (default: when the provider offers them), always or never.' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl providers add" profile' -l 'profile' -d 'fapi2: require what FAPI 2.0 requires (pushed requests, DPoP, iss on the redirect); none: no profile.' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl providers add" tenant' -l 'tenant' -d 'microsoft.com: common (default), organizations, consumers, a tenant id (GUID) or a tenant domain.' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl providers add" authority-host' -l 'authority-host' -d 'microsoft.com: the sign-in host (default https://login.microsoftonline.com).' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl providers add" graph-host' -l 'graph-host' -d 'microsoft.com: the Microsoft Graph host (default https://graph.microsoft.com).' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl providers add" team-id' -l 'team-id' -d 'apple.com: the team id (10 characters).' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl providers add" key-id' -l 'key-id' -d 'apple.com: the id of the Sign in with Apple key (10 characters).' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl providers add" private-key-file' -l 'private-key-file' -d 'apple.com: the AuthKey_KEYID.p8 file (mode 0600; read when needed, never copied).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl providers add" clear-scopes' -l 'clear-scopes' -d 'Remove the stored default scopes.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl providers add" clear-params' -l 'clear-params' -d 'Remove the stored custom parameters.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl providers add" clear-redirect-uri' -l 'clear-redirect-uri' -d 'Remove the stored redirect URI (back to the default).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl providers add" clear-listen-address' -l 'clear-listen-address' -d 'Remove the stored listen address (back to an ephemeral port).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl providers add" clear-client-secret' -l 'clear-client-secret' -d 'Remove the stored client secret source or key file (a public client).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl providers add" no-check' -l 'no-check' -d 'Save without fetching the provider\'s discovery document (an offline set-up; it is checked at the first sign-in).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl providers add" keystore' -l 'keystore' -d 'The keystore file (env AUTHCTL_KEYSTORE; default $XDG_DATA_HOME/authctl/keystore.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl providers add" config' -l 'config' -d 'The configuration file (env AUTHCTL_CONFIG; default $XDG_CONFIG_HOME/authctl/config.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl providers add" user' -l 'user' -d 'The user whose token a command reads (token, request, exec, git-credential, aws-credentials, gcp-token, status, users photo), by uid or email, without making it the current user (env AUTHCTL_USER; overrides config.json\'s rules). Other commands refuse it.' -rfka '(__authctl_custom_completion ---completion providers add -- --user (count (__authctl_tokens -pc)) (__authctl_tokens -tC))'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl providers add" json' -l 'json' -d 'Print exactly one JSON document on stdout (the result or the error).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl providers add" v verbose' -l 'verbose' -s 'v' -d 'Log each HTTP exchange (method, host, path, status, duration) to stderr; secrets are never logged.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl providers add" q quiet' -l 'quiet' -s 'q' -d 'Print no progress lines.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl providers add" version' -l 'version' -d 'Show the version.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl providers add" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl providers list" keystore' -l 'keystore' -d 'The keystore file (env AUTHCTL_KEYSTORE; default $XDG_DATA_HOME/authctl/keystore.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl providers list" config' -l 'config' -d 'The configuration file (env AUTHCTL_CONFIG; default $XDG_CONFIG_HOME/authctl/config.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl providers list" user' -l 'user' -d 'The user whose token a command reads (token, request, exec, git-credential, aws-credentials, gcp-token, status, users photo), by uid or email, without making it the current user (env AUTHCTL_USER; overrides config.json\'s rules). Other commands refuse it.' -rfka '(__authctl_custom_completion ---completion providers list -- --user (count (__authctl_tokens -pc)) (__authctl_tokens -tC))'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl providers list" json' -l 'json' -d 'Print exactly one JSON document on stdout (the result or the error).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl providers list" v verbose' -l 'verbose' -s 'v' -d 'Log each HTTP exchange (method, host, path, status, duration) to stderr; secrets are never logged.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl providers list" q quiet' -l 'quiet' -s 'q' -d 'Print no progress lines.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl providers list" version' -l 'version' -d 'Show the version.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl providers list" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_positional "authctl providers show" -eq 1' -fka '(__authctl_custom_completion ---completion providers show -- positional@0 (count (__authctl_tokens -pc)) (__authctl_tokens -tC))'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl providers show" keystore' -l 'keystore' -d 'The keystore file (env AUTHCTL_KEYSTORE; default $XDG_DATA_HOME/authctl/keystore.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl providers show" config' -l 'config' -d 'The configuration file (env AUTHCTL_CONFIG; default $XDG_CONFIG_HOME/authctl/config.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl providers show" user' -l 'user' -d 'The user whose token a command reads (token, request, exec, git-credential, aws-credentials, gcp-token, status, users photo), by uid or email, without making it the current user (env AUTHCTL_USER; overrides config.json\'s rules). Other commands refuse it.' -rfka '(__authctl_custom_completion ---completion providers show -- --user (count (__authctl_tokens -pc)) (__authctl_tokens -tC))'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl providers show" json' -l 'json' -d 'Print exactly one JSON document on stdout (the result or the error).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl providers show" v verbose' -l 'verbose' -s 'v' -d 'Log each HTTP exchange (method, host, path, status, duration) to stderr; secrets are never logged.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl providers show" q quiet' -l 'quiet' -s 'q' -d 'Print no progress lines.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl providers show" version' -l 'version' -d 'Show the version.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl providers show" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_positional "authctl providers remove" -eq 1' -fka '(__authctl_custom_completion ---completion providers remove -- positional@0 (count (__authctl_tokens -pc)) (__authctl_tokens -tC))'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl providers remove" y yes' -s 'y' -l 'yes' -d 'Do not ask for confirmation on a terminal.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl providers remove" keystore' -l 'keystore' -d 'The keystore file (env AUTHCTL_KEYSTORE; default $XDG_DATA_HOME/authctl/keystore.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl providers remove" config' -l 'config' -d 'The configuration file (env AUTHCTL_CONFIG; default $XDG_CONFIG_HOME/authctl/config.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl providers remove" user' -l 'user' -d 'The user whose token a command reads (token, request, exec, git-credential, aws-credentials, gcp-token, status, users photo), by uid or email, without making it the current user (env AUTHCTL_USER; overrides config.json\'s rules). Other commands refuse it.' -rfka '(__authctl_custom_completion ---completion providers remove -- --user (count (__authctl_tokens -pc)) (__authctl_tokens -tC))'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl providers remove" json' -l 'json' -d 'Print exactly one JSON document on stdout (the result or the error).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl providers remove" v verbose' -l 'verbose' -s 'v' -d 'Log each HTTP exchange (method, host, path, status, duration) to stderr; secrets are never logged.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl providers remove" q quiet' -l 'quiet' -s 'q' -d 'Print no progress lines.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl providers remove" version' -l 'version' -d 'Show the version.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl providers remove" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl users" version' -l 'version' -d 'Show the version.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl users" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_positional "authctl users" -eq 1' -fa 'list' -d 'List every user in the keystore (* the current one; SESSION: who still has one).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_positional "authctl users" -eq 1' -fa 'show' -d 'Show a user (the current one by default).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_positional "authctl users" -eq 1' -fa 'use' -d 'Make another signed-in user the current one.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_positional "authctl users" -eq 1' -fa 'delete' -d 'Delete a user (the current one by default) after revoking its tokens.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_positional "authctl users" -eq 1' -fa 'export' -d 'Write the users (never their tokens) as JSON on stdout.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_positional "authctl users" -eq 1' -fa 'import' -d 'Add the users of an authctl export to the keystore (all or nothing).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_positional "authctl users" -eq 1' -fa 'photo' -d 'Fetch the current user\'s photo from the provider (Microsoft Graph).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl users list" keystore' -l 'keystore' -d 'The keystore file (env AUTHCTL_KEYSTORE; default $XDG_DATA_HOME/authctl/keystore.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl users list" config' -l 'config' -d 'The configuration file (env AUTHCTL_CONFIG; default $XDG_CONFIG_HOME/authctl/config.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl users list" user' -l 'user' -d 'The user whose token a command reads (token, request, exec, git-credential, aws-credentials, gcp-token, status, users photo), by uid or email, without making it the current user (env AUTHCTL_USER; overrides config.json\'s rules). Other commands refuse it.' -rfka '(__authctl_custom_completion ---completion users list -- --user (count (__authctl_tokens -pc)) (__authctl_tokens -tC))'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl users list" json' -l 'json' -d 'Print exactly one JSON document on stdout (the result or the error).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl users list" v verbose' -l 'verbose' -s 'v' -d 'Log each HTTP exchange (method, host, path, status, duration) to stderr; secrets are never logged.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl users list" q quiet' -l 'quiet' -s 'q' -d 'Print no progress lines.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl users list" version' -l 'version' -d 'Show the version.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl users list" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_positional "authctl users show" -eq 1' -fka '(__authctl_custom_completion ---completion users show -- positional@0 (count (__authctl_tokens -pc)) (__authctl_tokens -tC))'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl users show" keystore' -l 'keystore' -d 'The keystore file (env AUTHCTL_KEYSTORE; default $XDG_DATA_HOME/authctl/keystore.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl users show" config' -l 'config' -d 'The configuration file (env AUTHCTL_CONFIG; default $XDG_CONFIG_HOME/authctl/config.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl users show" user' -l 'user' -d 'The user whose token a command reads (token, request, exec, git-credential, aws-credentials, gcp-token, status, users photo), by uid or email, without making it the current user (env AUTHCTL_USER; overrides config.json\'s rules). Other commands refuse it.' -rfka '(__authctl_custom_completion ---completion users show -- --user (count (__authctl_tokens -pc)) (__authctl_tokens -tC))'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl users show" json' -l 'json' -d 'Print exactly one JSON document on stdout (the result or the error).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl users show" v verbose' -l 'verbose' -s 'v' -d 'Log each HTTP exchange (method, host, path, status, duration) to stderr; secrets are never logged.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl users show" q quiet' -l 'quiet' -s 'q' -d 'Print no progress lines.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl users show" version' -l 'version' -d 'Show the version.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl users show" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_positional "authctl users use" -eq 1' -fka '(__authctl_custom_completion ---completion users use -- positional@0 (count (__authctl_tokens -pc)) (__authctl_tokens -tC))'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl users use" keystore' -l 'keystore' -d 'The keystore file (env AUTHCTL_KEYSTORE; default $XDG_DATA_HOME/authctl/keystore.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl users use" config' -l 'config' -d 'The configuration file (env AUTHCTL_CONFIG; default $XDG_CONFIG_HOME/authctl/config.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl users use" user' -l 'user' -d 'The user whose token a command reads (token, request, exec, git-credential, aws-credentials, gcp-token, status, users photo), by uid or email, without making it the current user (env AUTHCTL_USER; overrides config.json\'s rules). Other commands refuse it.' -rfka '(__authctl_custom_completion ---completion users use -- --user (count (__authctl_tokens -pc)) (__authctl_tokens -tC))'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl users use" json' -l 'json' -d 'Print exactly one JSON document on stdout (the result or the error).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl users use" v verbose' -l 'verbose' -s 'v' -d 'Log each HTTP exchange (method, host, path, status, duration) to stderr; secrets are never logged.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl users use" q quiet' -l 'quiet' -s 'q' -d 'Print no progress lines.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl users use" version' -l 'version' -d 'Show the version.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl users use" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_positional "authctl users delete" -eq 1' -fka '(__authctl_custom_completion ---completion users delete -- positional@0 (count (__authctl_tokens -pc)) (__authctl_tokens -tC))'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl users delete" y yes' -s 'y' -l 'yes' -d 'Do not ask for confirmation on a terminal.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl users delete" keystore' -l 'keystore' -d 'The keystore file (env AUTHCTL_KEYSTORE; default $XDG_DATA_HOME/authctl/keystore.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl users delete" config' -l 'config' -d 'The configuration file (env AUTHCTL_CONFIG; default $XDG_CONFIG_HOME/authctl/config.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl users delete" user' -l 'user' -d 'The user whose token a command reads (token, request, exec, git-credential, aws-credentials, gcp-token, status, users photo), by uid or email, without making it the current user (env AUTHCTL_USER; overrides config.json\'s rules). Other commands refuse it.' -rfka '(__authctl_custom_completion ---completion users delete -- --user (count (__authctl_tokens -pc)) (__authctl_tokens -tC))'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl users delete" json' -l 'json' -d 'Print exactly one JSON document on stdout (the result or the error).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl users delete" v verbose' -l 'verbose' -s 'v' -d 'Log each HTTP exchange (method, host, path, status, duration) to stderr; secrets are never logged.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl users delete" q quiet' -l 'quiet' -s 'q' -d 'Print no progress lines.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl users delete" version' -l 'version' -d 'Show the version.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl users delete" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl users export" format' -l 'format' -d 'authctl or firebase.' -rfka 'authctl firebase'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl users export" keystore' -l 'keystore' -d 'The keystore file (env AUTHCTL_KEYSTORE; default $XDG_DATA_HOME/authctl/keystore.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl users export" config' -l 'config' -d 'The configuration file (env AUTHCTL_CONFIG; default $XDG_CONFIG_HOME/authctl/config.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl users export" user' -l 'user' -d 'The user whose token a command reads (token, request, exec, git-credential, aws-credentials, gcp-token, status, users photo), by uid or email, without making it the current user (env AUTHCTL_USER; overrides config.json\'s rules). Other commands refuse it.' -rfka '(__authctl_custom_completion ---completion users export -- --user (count (__authctl_tokens -pc)) (__authctl_tokens -tC))'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl users export" json' -l 'json' -d 'Print exactly one JSON document on stdout (the result or the error).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl users export" v verbose' -l 'verbose' -s 'v' -d 'Log each HTTP exchange (method, host, path, status, duration) to stderr; secrets are never logged.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl users export" q quiet' -l 'quiet' -s 'q' -d 'Print no progress lines.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl users export" version' -l 'version' -d 'Show the version.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl users export" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_positional "authctl users import" -eq 1' -F
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl users import" keystore' -l 'keystore' -d 'The keystore file (env AUTHCTL_KEYSTORE; default $XDG_DATA_HOME/authctl/keystore.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl users import" config' -l 'config' -d 'The configuration file (env AUTHCTL_CONFIG; default $XDG_CONFIG_HOME/authctl/config.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl users import" user' -l 'user' -d 'The user whose token a command reads (token, request, exec, git-credential, aws-credentials, gcp-token, status, users photo), by uid or email, without making it the current user (env AUTHCTL_USER; overrides config.json\'s rules). Other commands refuse it.' -rfka '(__authctl_custom_completion ---completion users import -- --user (count (__authctl_tokens -pc)) (__authctl_tokens -tC))'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl users import" json' -l 'json' -d 'Print exactly one JSON document on stdout (the result or the error).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl users import" v verbose' -l 'verbose' -s 'v' -d 'Log each HTTP exchange (method, host, path, status, duration) to stderr; secrets are never logged.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl users import" q quiet' -l 'quiet' -s 'q' -d 'Print no progress lines.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl users import" version' -l 'version' -d 'Show the version.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl users import" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl users photo" o output' -l 'output' -s 'o' -d 'The file to write the image to.' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl users photo" keystore' -l 'keystore' -d 'The keystore file (env AUTHCTL_KEYSTORE; default $XDG_DATA_HOME/authctl/keystore.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl users photo" config' -l 'config' -d 'The configuration file (env AUTHCTL_CONFIG; default $XDG_CONFIG_HOME/authctl/config.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl users photo" user' -l 'user' -d 'The user whose token a command reads (token, request, exec, git-credential, aws-credentials, gcp-token, status, users photo), by uid or email, without making it the current user (env AUTHCTL_USER; overrides config.json\'s rules). Other commands refuse it.' -rfka '(__authctl_custom_completion ---completion users photo -- --user (count (__authctl_tokens -pc)) (__authctl_tokens -tC))'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl users photo" json' -l 'json' -d 'Print exactly one JSON document on stdout (the result or the error).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl users photo" v verbose' -l 'verbose' -s 'v' -d 'Log each HTTP exchange (method, host, path, status, duration) to stderr; secrets are never logged.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl users photo" q quiet' -l 'quiet' -s 'q' -d 'Print no progress lines.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl users photo" version' -l 'version' -d 'Show the version.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl users photo" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl keystore" version' -l 'version' -d 'Show the version.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl keystore" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_positional "authctl keystore" -eq 1' -fa 'status' -d 'Say whether the keystore is sealed, and with what. Needs no key.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_positional "authctl keystore" -eq 1' -fa 'seal' -d 'Seal every token of the keystore under a new data key, kept with a key file, a passphrase or the keyring.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_positional "authctl keystore" -eq 1' -fa 'unseal' -d 'Write the keystore in plaintext again (format version 1), with its key.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_positional "authctl keystore" -eq 1' -fa 'rekey' -d 'Seal the keystore again under a new data key, kept another way (or the same); nobody is signed out.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_positional "authctl keystore" -eq 1' -fa 'new-key' -d 'Print a new random 32-byte key in base64, for a key file: authctl keystore new-key > PATH; chmod 600 PATH.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl keystore status" keystore' -l 'keystore' -d 'The keystore file (env AUTHCTL_KEYSTORE; default $XDG_DATA_HOME/authctl/keystore.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl keystore status" config' -l 'config' -d 'The configuration file (env AUTHCTL_CONFIG; default $XDG_CONFIG_HOME/authctl/config.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl keystore status" user' -l 'user' -d 'The user whose token a command reads (token, request, exec, git-credential, aws-credentials, gcp-token, status, users photo), by uid or email, without making it the current user (env AUTHCTL_USER; overrides config.json\'s rules). Other commands refuse it.' -rfka '(__authctl_custom_completion ---completion keystore status -- --user (count (__authctl_tokens -pc)) (__authctl_tokens -tC))'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl keystore status" json' -l 'json' -d 'Print exactly one JSON document on stdout (the result or the error).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl keystore status" v verbose' -l 'verbose' -s 'v' -d 'Log each HTTP exchange (method, host, path, status, duration) to stderr; secrets are never logged.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl keystore status" q quiet' -l 'quiet' -s 'q' -d 'Print no progress lines.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl keystore status" version' -l 'version' -d 'Show the version.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl keystore status" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl keystore seal" key-file' -l 'key-file' -d 'Seal with the 32-byte key in this file (authctl keystore new-key).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl keystore seal" passphrase-env' -l 'passphrase-env' -d 'Seal with the passphrase in this environment variable.' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl keystore seal" passphrase-file' -l 'passphrase-file' -d 'Seal with the passphrase in this file (its first line).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl keystore seal" keyring' -l 'keyring' -d 'Seal with a key kept in the system keyring (the Secret Service: GNOME Keyring, KWallet, KeePassXC).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl keystore seal" keystore' -l 'keystore' -d 'The keystore file (env AUTHCTL_KEYSTORE; default $XDG_DATA_HOME/authctl/keystore.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl keystore seal" config' -l 'config' -d 'The configuration file (env AUTHCTL_CONFIG; default $XDG_CONFIG_HOME/authctl/config.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl keystore seal" user' -l 'user' -d 'The user whose token a command reads (token, request, exec, git-credential, aws-credentials, gcp-token, status, users photo), by uid or email, without making it the current user (env AUTHCTL_USER; overrides config.json\'s rules). Other commands refuse it.' -rfka '(__authctl_custom_completion ---completion keystore seal -- --user (count (__authctl_tokens -pc)) (__authctl_tokens -tC))'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl keystore seal" json' -l 'json' -d 'Print exactly one JSON document on stdout (the result or the error).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl keystore seal" v verbose' -l 'verbose' -s 'v' -d 'Log each HTTP exchange (method, host, path, status, duration) to stderr; secrets are never logged.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl keystore seal" q quiet' -l 'quiet' -s 'q' -d 'Print no progress lines.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl keystore seal" version' -l 'version' -d 'Show the version.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl keystore seal" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl keystore unseal" y yes' -s 'y' -l 'yes' -d 'Do not ask for confirmation on a terminal.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl keystore unseal" keystore' -l 'keystore' -d 'The keystore file (env AUTHCTL_KEYSTORE; default $XDG_DATA_HOME/authctl/keystore.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl keystore unseal" config' -l 'config' -d 'The configuration file (env AUTHCTL_CONFIG; default $XDG_CONFIG_HOME/authctl/config.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl keystore unseal" user' -l 'user' -d 'The user whose token a command reads (token, request, exec, git-credential, aws-credentials, gcp-token, status, users photo), by uid or email, without making it the current user (env AUTHCTL_USER; overrides config.json\'s rules). Other commands refuse it.' -rfka '(__authctl_custom_completion ---completion keystore unseal -- --user (count (__authctl_tokens -pc)) (__authctl_tokens -tC))'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl keystore unseal" json' -l 'json' -d 'Print exactly one JSON document on stdout (the result or the error).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl keystore unseal" v verbose' -l 'verbose' -s 'v' -d 'Log each HTTP exchange (method, host, path, status, duration) to stderr; secrets are never logged.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl keystore unseal" q quiet' -l 'quiet' -s 'q' -d 'Print no progress lines.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl keystore unseal" version' -l 'version' -d 'Show the version.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl keystore unseal" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl keystore rekey" key-file' -l 'key-file' -d 'Seal with the 32-byte key in this file (authctl keystore new-key).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl keystore rekey" passphrase-env' -l 'passphrase-env' -d 'Seal with the passphrase in this environment variable.' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl keystore rekey" passphrase-file' -l 'passphrase-file' -d 'Seal with the passphrase in this file (its first line).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl keystore rekey" keyring' -l 'keyring' -d 'Seal with a key kept in the system keyring (the Secret Service: GNOME Keyring, KWallet, KeePassXC).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl keystore rekey" keystore' -l 'keystore' -d 'The keystore file (env AUTHCTL_KEYSTORE; default $XDG_DATA_HOME/authctl/keystore.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl keystore rekey" config' -l 'config' -d 'The configuration file (env AUTHCTL_CONFIG; default $XDG_CONFIG_HOME/authctl/config.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl keystore rekey" user' -l 'user' -d 'The user whose token a command reads (token, request, exec, git-credential, aws-credentials, gcp-token, status, users photo), by uid or email, without making it the current user (env AUTHCTL_USER; overrides config.json\'s rules). Other commands refuse it.' -rfka '(__authctl_custom_completion ---completion keystore rekey -- --user (count (__authctl_tokens -pc)) (__authctl_tokens -tC))'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl keystore rekey" json' -l 'json' -d 'Print exactly one JSON document on stdout (the result or the error).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl keystore rekey" v verbose' -l 'verbose' -s 'v' -d 'Log each HTTP exchange (method, host, path, status, duration) to stderr; secrets are never logged.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl keystore rekey" q quiet' -l 'quiet' -s 'q' -d 'Print no progress lines.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl keystore rekey" version' -l 'version' -d 'Show the version.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl keystore rekey" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl keystore new-key" keystore' -l 'keystore' -d 'The keystore file (env AUTHCTL_KEYSTORE; default $XDG_DATA_HOME/authctl/keystore.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl keystore new-key" config' -l 'config' -d 'The configuration file (env AUTHCTL_CONFIG; default $XDG_CONFIG_HOME/authctl/config.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl keystore new-key" user' -l 'user' -d 'The user whose token a command reads (token, request, exec, git-credential, aws-credentials, gcp-token, status, users photo), by uid or email, without making it the current user (env AUTHCTL_USER; overrides config.json\'s rules). Other commands refuse it.' -rfka '(__authctl_custom_completion ---completion keystore new-key -- --user (count (__authctl_tokens -pc)) (__authctl_tokens -tC))'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl keystore new-key" json' -l 'json' -d 'Print exactly one JSON document on stdout (the result or the error).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl keystore new-key" v verbose' -l 'verbose' -s 'v' -d 'Log each HTTP exchange (method, host, path, status, duration) to stderr; secrets are never logged.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl keystore new-key" q quiet' -l 'quiet' -s 'q' -d 'Print no progress lines.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl keystore new-key" version' -l 'version' -d 'Show the version.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl keystore new-key" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl unlock" for' -l 'for' -d 'How long: a number with s, m or h (at most 24h).' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl unlock" keystore' -l 'keystore' -d 'The keystore file (env AUTHCTL_KEYSTORE; default $XDG_DATA_HOME/authctl/keystore.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl unlock" config' -l 'config' -d 'The configuration file (env AUTHCTL_CONFIG; default $XDG_CONFIG_HOME/authctl/config.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl unlock" user' -l 'user' -d 'The user whose token a command reads (token, request, exec, git-credential, aws-credentials, gcp-token, status, users photo), by uid or email, without making it the current user (env AUTHCTL_USER; overrides config.json\'s rules). Other commands refuse it.' -rfka '(__authctl_custom_completion ---completion unlock -- --user (count (__authctl_tokens -pc)) (__authctl_tokens -tC))'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl unlock" json' -l 'json' -d 'Print exactly one JSON document on stdout (the result or the error).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl unlock" v verbose' -l 'verbose' -s 'v' -d 'Log each HTTP exchange (method, host, path, status, duration) to stderr; secrets are never logged.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl unlock" q quiet' -l 'quiet' -s 'q' -d 'Print no progress lines.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl unlock" version' -l 'version' -d 'Show the version.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl unlock" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl lock" keystore' -l 'keystore' -d 'The keystore file (env AUTHCTL_KEYSTORE; default $XDG_DATA_HOME/authctl/keystore.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl lock" config' -l 'config' -d 'The configuration file (env AUTHCTL_CONFIG; default $XDG_CONFIG_HOME/authctl/config.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl lock" user' -l 'user' -d 'The user whose token a command reads (token, request, exec, git-credential, aws-credentials, gcp-token, status, users photo), by uid or email, without making it the current user (env AUTHCTL_USER; overrides config.json\'s rules). Other commands refuse it.' -rfka '(__authctl_custom_completion ---completion lock -- --user (count (__authctl_tokens -pc)) (__authctl_tokens -tC))'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl lock" json' -l 'json' -d 'Print exactly one JSON document on stdout (the result or the error).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl lock" v verbose' -l 'verbose' -s 'v' -d 'Log each HTTP exchange (method, host, path, status, duration) to stderr; secrets are never logged.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl lock" q quiet' -l 'quiet' -s 'q' -d 'Print no progress lines.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl lock" version' -l 'version' -d 'Show the version.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl lock" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl backend" version' -l 'version' -d 'Show the version.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl backend" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_positional "authctl backend" -eq 1' -fa 'use' -d 'Use the local keystore, or a Firebase project, as the user database.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_positional "authctl backend" -eq 1' -fa 'show' -d 'Show where users live.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_positional "authctl backend use" -eq 1' -fka 'local firebase'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl backend use" project' -l 'project' -d 'firebase: the project id.' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl backend use" api-key' -l 'api-key' -d 'firebase: the project\'s Web API key (never printed).' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl backend use" tenant-id' -l 'tenant-id' -d 'firebase: the Identity Platform tenant users sign in to.' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl backend use" emulator' -l 'emulator' -d 'firebase: the Auth emulator on this machine.' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl backend use" keystore' -l 'keystore' -d 'The keystore file (env AUTHCTL_KEYSTORE; default $XDG_DATA_HOME/authctl/keystore.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl backend use" config' -l 'config' -d 'The configuration file (env AUTHCTL_CONFIG; default $XDG_CONFIG_HOME/authctl/config.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl backend use" user' -l 'user' -d 'The user whose token a command reads (token, request, exec, git-credential, aws-credentials, gcp-token, status, users photo), by uid or email, without making it the current user (env AUTHCTL_USER; overrides config.json\'s rules). Other commands refuse it.' -rfka '(__authctl_custom_completion ---completion backend use -- --user (count (__authctl_tokens -pc)) (__authctl_tokens -tC))'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl backend use" json' -l 'json' -d 'Print exactly one JSON document on stdout (the result or the error).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl backend use" v verbose' -l 'verbose' -s 'v' -d 'Log each HTTP exchange (method, host, path, status, duration) to stderr; secrets are never logged.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl backend use" q quiet' -l 'quiet' -s 'q' -d 'Print no progress lines.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl backend use" version' -l 'version' -d 'Show the version.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl backend use" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl backend show" keystore' -l 'keystore' -d 'The keystore file (env AUTHCTL_KEYSTORE; default $XDG_DATA_HOME/authctl/keystore.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl backend show" config' -l 'config' -d 'The configuration file (env AUTHCTL_CONFIG; default $XDG_CONFIG_HOME/authctl/config.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl backend show" user' -l 'user' -d 'The user whose token a command reads (token, request, exec, git-credential, aws-credentials, gcp-token, status, users photo), by uid or email, without making it the current user (env AUTHCTL_USER; overrides config.json\'s rules). Other commands refuse it.' -rfka '(__authctl_custom_completion ---completion backend show -- --user (count (__authctl_tokens -pc)) (__authctl_tokens -tC))'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl backend show" json' -l 'json' -d 'Print exactly one JSON document on stdout (the result or the error).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl backend show" v verbose' -l 'verbose' -s 'v' -d 'Log each HTTP exchange (method, host, path, status, duration) to stderr; secrets are never logged.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl backend show" q quiet' -l 'quiet' -s 'q' -d 'Print no progress lines.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl backend show" version' -l 'version' -d 'Show the version.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl backend show" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl version" keystore' -l 'keystore' -d 'The keystore file (env AUTHCTL_KEYSTORE; default $XDG_DATA_HOME/authctl/keystore.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl version" config' -l 'config' -d 'The configuration file (env AUTHCTL_CONFIG; default $XDG_CONFIG_HOME/authctl/config.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl version" user' -l 'user' -d 'The user whose token a command reads (token, request, exec, git-credential, aws-credentials, gcp-token, status, users photo), by uid or email, without making it the current user (env AUTHCTL_USER; overrides config.json\'s rules). Other commands refuse it.' -rfka '(__authctl_custom_completion ---completion version -- --user (count (__authctl_tokens -pc)) (__authctl_tokens -tC))'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl version" json' -l 'json' -d 'Print exactly one JSON document on stdout (the result or the error).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl version" v verbose' -l 'verbose' -s 'v' -d 'Log each HTTP exchange (method, host, path, status, duration) to stderr; secrets are never logged.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl version" q quiet' -l 'quiet' -s 'q' -d 'Print no progress lines.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl version" version' -l 'version' -d 'Show the version.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl version" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_positional "authctl completion" -eq 1' -fka 'bash zsh fish'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl completion" keystore' -l 'keystore' -d 'The keystore file (env AUTHCTL_KEYSTORE; default $XDG_DATA_HOME/authctl/keystore.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl completion" config' -l 'config' -d 'The configuration file (env AUTHCTL_CONFIG; default $XDG_CONFIG_HOME/authctl/config.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl completion" user' -l 'user' -d 'The user whose token a command reads (token, request, exec, git-credential, aws-credentials, gcp-token, status, users photo), by uid or email, without making it the current user (env AUTHCTL_USER; overrides config.json\'s rules). Other commands refuse it.' -rfka '(__authctl_custom_completion ---completion completion -- --user (count (__authctl_tokens -pc)) (__authctl_tokens -tC))'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl completion" json' -l 'json' -d 'Print exactly one JSON document on stdout (the result or the error).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl completion" v verbose' -l 'verbose' -s 'v' -d 'Log each HTTP exchange (method, host, path, status, duration) to stderr; secrets are never logged.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl completion" q quiet' -l 'quiet' -s 'q' -d 'Print no progress lines.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl completion" version' -l 'version' -d 'Show the version.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl completion" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_positional "authctl doctor" -eq 1' -fka '(__authctl_custom_completion ---completion doctor -- positional@0 (count (__authctl_tokens -pc)) (__authctl_tokens -tC))'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl doctor" keystore' -l 'keystore' -d 'The keystore file (env AUTHCTL_KEYSTORE; default $XDG_DATA_HOME/authctl/keystore.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl doctor" config' -l 'config' -d 'The configuration file (env AUTHCTL_CONFIG; default $XDG_CONFIG_HOME/authctl/config.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl doctor" user' -l 'user' -d 'The user whose token a command reads (token, request, exec, git-credential, aws-credentials, gcp-token, status, users photo), by uid or email, without making it the current user (env AUTHCTL_USER; overrides config.json\'s rules). Other commands refuse it.' -rfka '(__authctl_custom_completion ---completion doctor -- --user (count (__authctl_tokens -pc)) (__authctl_tokens -tC))'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl doctor" json' -l 'json' -d 'Print exactly one JSON document on stdout (the result or the error).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl doctor" v verbose' -l 'verbose' -s 'v' -d 'Log each HTTP exchange (method, host, path, status, duration) to stderr; secrets are never logged.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl doctor" q quiet' -l 'quiet' -s 'q' -d 'Print no progress lines.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl doctor" version' -l 'version' -d 'Show the version.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl doctor" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl aws-credentials" role-arn' -l 'role-arn' -d 'The role to assume (arn:aws:iam::ACCOUNT:role/NAME).' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl aws-credentials" duration' -l 'duration' -d 'How long the credentials last, from 900 to 43200 seconds (default: STS\'s, an hour).' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl aws-credentials" session-name' -l 'session-name' -d 'The role session name CloudTrail shows (default authctl-UID).' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl aws-credentials" sts-endpoint' -l 'sts-endpoint' -d 'The STS address (default https://sts.REGION.amazonaws.com/ with --region, else the global one).' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl aws-credentials" region' -l 'region' -d 'Call the STS of this region (such as eu-west-1).' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl aws-credentials" audience' -l 'audience' -d 'Give a token exchanged for this audience (RFC 8693) instead of the ID token.' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl aws-credentials" subject-token-type' -l 'subject-token-type' -d 'With --audience: the identity\'s token given in exchange: access_token (default) or id_token.' -rfka 'access_token id_token'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl aws-credentials" provider' -l 'provider' -d 'The identity\'s provider (default: the one of the last sign-in).' -rfka '(__authctl_custom_completion ---completion aws-credentials -- --provider (count (__authctl_tokens -pc)) (__authctl_tokens -tC))'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl aws-credentials" force-refresh' -l 'force-refresh' -d 'Assume the role again even when the cached credentials are still valid.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl aws-credentials" keystore' -l 'keystore' -d 'The keystore file (env AUTHCTL_KEYSTORE; default $XDG_DATA_HOME/authctl/keystore.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl aws-credentials" config' -l 'config' -d 'The configuration file (env AUTHCTL_CONFIG; default $XDG_CONFIG_HOME/authctl/config.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl aws-credentials" user' -l 'user' -d 'The user whose token a command reads (token, request, exec, git-credential, aws-credentials, gcp-token, status, users photo), by uid or email, without making it the current user (env AUTHCTL_USER; overrides config.json\'s rules). Other commands refuse it.' -rfka '(__authctl_custom_completion ---completion aws-credentials -- --user (count (__authctl_tokens -pc)) (__authctl_tokens -tC))'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl aws-credentials" json' -l 'json' -d 'Print exactly one JSON document on stdout (the result or the error).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl aws-credentials" v verbose' -l 'verbose' -s 'v' -d 'Log each HTTP exchange (method, host, path, status, duration) to stderr; secrets are never logged.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl aws-credentials" q quiet' -l 'quiet' -s 'q' -d 'Print no progress lines.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl aws-credentials" version' -l 'version' -d 'Show the version.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl aws-credentials" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl gcp-token" audience' -l 'audience' -d 'Give a token exchanged for this audience (RFC 8693) instead of the ID token.' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl gcp-token" subject-token-type' -l 'subject-token-type' -d 'With --audience: the identity\'s token given in exchange: access_token (default) or id_token.' -rfka 'access_token id_token'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl gcp-token" provider' -l 'provider' -d 'The identity\'s provider (default: the one of the last sign-in).' -rfka '(__authctl_custom_completion ---completion gcp-token -- --provider (count (__authctl_tokens -pc)) (__authctl_tokens -tC))'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl gcp-token" keystore' -l 'keystore' -d 'The keystore file (env AUTHCTL_KEYSTORE; default $XDG_DATA_HOME/authctl/keystore.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl gcp-token" config' -l 'config' -d 'The configuration file (env AUTHCTL_CONFIG; default $XDG_CONFIG_HOME/authctl/config.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl gcp-token" user' -l 'user' -d 'The user whose token a command reads (token, request, exec, git-credential, aws-credentials, gcp-token, status, users photo), by uid or email, without making it the current user (env AUTHCTL_USER; overrides config.json\'s rules). Other commands refuse it.' -rfka '(__authctl_custom_completion ---completion gcp-token -- --user (count (__authctl_tokens -pc)) (__authctl_tokens -tC))'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl gcp-token" json' -l 'json' -d 'Print exactly one JSON document on stdout (the result or the error).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl gcp-token" v verbose' -l 'verbose' -s 'v' -d 'Log each HTTP exchange (method, host, path, status, duration) to stderr; secrets are never logged.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl gcp-token" q quiet' -l 'quiet' -s 'q' -d 'Print no progress lines.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl gcp-token" version' -l 'version' -d 'Show the version.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl gcp-token" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl rules" version' -l 'version' -d 'Show the version.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl rules" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_positional "authctl rules" -eq 1' -fa 'add' -d 'Add a rule (last, or at --position); every condition given must hold.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_positional "authctl rules" -eq 1' -fa 'list' -d 'List the rules in the order they are tried.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_positional "authctl rules" -eq 1' -fa 'remove' -d 'Remove a rule by its name or number.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_positional "authctl rules" -eq 1' -fa 'explain' -d 'Show which rule wins here, and why each rule does or does not hold.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl rules add" name' -l 'name' -d 'A name to remove it by.' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl rules add" provider' -l 'provider' -d 'The provider whose token to give.' -rfka '(__authctl_custom_completion ---completion rules add -- --provider (count (__authctl_tokens -pc)) (__authctl_tokens -tC))'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl rules add" directory' -l 'directory' -d 'Holds in this directory and under it (~ for home; symbolic links resolved).' -rfa '(__authctl_complete_directories)'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl rules add" remote' -l 'remote' -d 'Holds when a git remote (or the URL git asks about) matches: * within a segment, ** across.' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl rules add" kube-context' -l 'kube-context' -d 'Holds when kubectl\'s current context matches.' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl rules add" env' -l 'env' -d 'Holds when NAME is set and not empty, or NAME=VALUE when it equals VALUE.' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl rules add" position' -l 'position' -d 'Its place among the rules, from 1 (default: last).' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl rules add" allow-unknown-user' -l 'allow-unknown-user' -d 'Add the rule although the keystore holds no such --user yet (sign them in before the rule is used).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl rules add" keystore' -l 'keystore' -d 'The keystore file (env AUTHCTL_KEYSTORE; default $XDG_DATA_HOME/authctl/keystore.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl rules add" config' -l 'config' -d 'The configuration file (env AUTHCTL_CONFIG; default $XDG_CONFIG_HOME/authctl/config.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl rules add" user' -l 'user' -d 'The user whose token a command reads (token, request, exec, git-credential, aws-credentials, gcp-token, status, users photo), by uid or email, without making it the current user (env AUTHCTL_USER; overrides config.json\'s rules). Other commands refuse it.' -rfka '(__authctl_custom_completion ---completion rules add -- --user (count (__authctl_tokens -pc)) (__authctl_tokens -tC))'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl rules add" json' -l 'json' -d 'Print exactly one JSON document on stdout (the result or the error).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl rules add" v verbose' -l 'verbose' -s 'v' -d 'Log each HTTP exchange (method, host, path, status, duration) to stderr; secrets are never logged.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl rules add" q quiet' -l 'quiet' -s 'q' -d 'Print no progress lines.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl rules add" version' -l 'version' -d 'Show the version.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl rules add" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl rules list" keystore' -l 'keystore' -d 'The keystore file (env AUTHCTL_KEYSTORE; default $XDG_DATA_HOME/authctl/keystore.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl rules list" config' -l 'config' -d 'The configuration file (env AUTHCTL_CONFIG; default $XDG_CONFIG_HOME/authctl/config.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl rules list" user' -l 'user' -d 'The user whose token a command reads (token, request, exec, git-credential, aws-credentials, gcp-token, status, users photo), by uid or email, without making it the current user (env AUTHCTL_USER; overrides config.json\'s rules). Other commands refuse it.' -rfka '(__authctl_custom_completion ---completion rules list -- --user (count (__authctl_tokens -pc)) (__authctl_tokens -tC))'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl rules list" json' -l 'json' -d 'Print exactly one JSON document on stdout (the result or the error).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl rules list" v verbose' -l 'verbose' -s 'v' -d 'Log each HTTP exchange (method, host, path, status, duration) to stderr; secrets are never logged.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl rules list" q quiet' -l 'quiet' -s 'q' -d 'Print no progress lines.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl rules list" version' -l 'version' -d 'Show the version.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl rules list" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl rules remove" keystore' -l 'keystore' -d 'The keystore file (env AUTHCTL_KEYSTORE; default $XDG_DATA_HOME/authctl/keystore.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl rules remove" config' -l 'config' -d 'The configuration file (env AUTHCTL_CONFIG; default $XDG_CONFIG_HOME/authctl/config.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl rules remove" user' -l 'user' -d 'The user whose token a command reads (token, request, exec, git-credential, aws-credentials, gcp-token, status, users photo), by uid or email, without making it the current user (env AUTHCTL_USER; overrides config.json\'s rules). Other commands refuse it.' -rfka '(__authctl_custom_completion ---completion rules remove -- --user (count (__authctl_tokens -pc)) (__authctl_tokens -tC))'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl rules remove" json' -l 'json' -d 'Print exactly one JSON document on stdout (the result or the error).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl rules remove" v verbose' -l 'verbose' -s 'v' -d 'Log each HTTP exchange (method, host, path, status, duration) to stderr; secrets are never logged.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl rules remove" q quiet' -l 'quiet' -s 'q' -d 'Print no progress lines.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl rules remove" version' -l 'version' -d 'Show the version.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl rules remove" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl rules explain" remote' -l 'remote' -d 'Explain for this URL, as git asks a credential for it.' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl rules explain" keystore' -l 'keystore' -d 'The keystore file (env AUTHCTL_KEYSTORE; default $XDG_DATA_HOME/authctl/keystore.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl rules explain" config' -l 'config' -d 'The configuration file (env AUTHCTL_CONFIG; default $XDG_CONFIG_HOME/authctl/config.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl rules explain" user' -l 'user' -d 'The user whose token a command reads (token, request, exec, git-credential, aws-credentials, gcp-token, status, users photo), by uid or email, without making it the current user (env AUTHCTL_USER; overrides config.json\'s rules). Other commands refuse it.' -rfka '(__authctl_custom_completion ---completion rules explain -- --user (count (__authctl_tokens -pc)) (__authctl_tokens -tC))'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl rules explain" json' -l 'json' -d 'Print exactly one JSON document on stdout (the result or the error).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl rules explain" v verbose' -l 'verbose' -s 'v' -d 'Log each HTTP exchange (method, host, path, status, duration) to stderr; secrets are never logged.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl rules explain" q quiet' -l 'quiet' -s 'q' -d 'Print no progress lines.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl rules explain" version' -l 'version' -d 'Show the version.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl rules explain" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl kubeconfig" version' -l 'version' -d 'Show the version.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl kubeconfig" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_positional "authctl kubeconfig" -eq 1' -fa 'set-credentials' -d 'Write a kubeconfig user whose exec plugin runs authctl token --format kubectl-exec.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl kubeconfig set-credentials" provider' -l 'provider' -d 'The provider whose token kubectl gets.' -rfka '(__authctl_custom_completion ---completion kubeconfig set-credentials -- --provider (count (__authctl_tokens -pc)) (__authctl_tokens -tC))'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl kubeconfig set-credentials" kubeconfig' -l 'kubeconfig' -d 'The kubeconfig file (default: the first of KUBECONFIG, else ~/.kube/config).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl kubeconfig set-credentials" command' -l 'command' -d 'The program kubectl runs (default: authctl, found on kubectl\'s PATH).' -rfka ''
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl kubeconfig set-credentials" dry-run' -l 'dry-run' -d 'Print the entry; change nothing.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl kubeconfig set-credentials" keystore' -l 'keystore' -d 'The keystore file (env AUTHCTL_KEYSTORE; default $XDG_DATA_HOME/authctl/keystore.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl kubeconfig set-credentials" config' -l 'config' -d 'The configuration file (env AUTHCTL_CONFIG; default $XDG_CONFIG_HOME/authctl/config.json).' -rF
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl kubeconfig set-credentials" user' -l 'user' -d 'The user whose token a command reads (token, request, exec, git-credential, aws-credentials, gcp-token, status, users photo), by uid or email, without making it the current user (env AUTHCTL_USER; overrides config.json\'s rules). Other commands refuse it.' -rfka '(__authctl_custom_completion ---completion kubeconfig set-credentials -- --user (count (__authctl_tokens -pc)) (__authctl_tokens -tC))'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl kubeconfig set-credentials" json' -l 'json' -d 'Print exactly one JSON document on stdout (the result or the error).'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl kubeconfig set-credentials" v verbose' -l 'verbose' -s 'v' -d 'Log each HTTP exchange (method, host, path, status, duration) to stderr; secrets are never logged.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl kubeconfig set-credentials" q quiet' -l 'quiet' -s 'q' -d 'Print no progress lines.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl kubeconfig set-credentials" version' -l 'version' -d 'Show the version.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl kubeconfig set-credentials" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'authctl' -n '__authctl_should_offer_completions_for_flags_or_options "authctl help" version' -l 'version' -d 'Show the version.'

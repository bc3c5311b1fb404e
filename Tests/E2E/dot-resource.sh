# Shared by run-resource-e2e.sh and run-resource-shared-e2e.sh (sourced after lib.sh, `here`
# set): django-oauth-toolkit 3.4.1 of Tests/E2E/django_provider and the test's own protected
# resource (resource_server.py) started on 127.0.0.1, both stopped on exit.
#   start_dot_and_resource   sets py, port, rs_port, E2E_ISSUER, E2E_RS_SECRET,
#                            E2E_WORKLOAD_SECRET and the client ids bootstrap.py made:
#                            public_client, workload_client, rs_client_id

start_dot_and_resource() {
    # django-oauth-toolkit and the secrets of the run, generated now, never committed (lib.sh).
    django_provider_state
    py="$dot_python"
    E2E_RS_SECRET="$("$py" -c 'import secrets; print(secrets.token_urlsafe(32))')"
    E2E_WORKLOAD_SECRET="$("$py" -c 'import secrets; print(secrets.token_urlsafe(32))')"
    export E2E_RS_SECRET E2E_WORKLOAD_SECRET

    port="$(free_port)"
    export E2E_ISSUER="http://127.0.0.1:$port/o"
    export E2E_CIMD_URL="https://client.authctl.test/metadata.json" E2E_CIMD_DOCUMENT="$work/provider/cimd.json"
    cd "$here/django_provider"
    "$py" manage.py migrate --verbosity 0
    { read -r public_client; read -r workload_client; read -r rs_client_id; } < <("$py" bootstrap.py)
    start_provider "$work/provider.log" "$py" manage.py runserver "127.0.0.1:$port" --noreload --verbosity 0
    wait_for "$E2E_ISSUER/.well-known/openid-configuration"

    rs_port="$(free_port)"
    mkdir -p "$work/gates"
    RS_GATES="$work/gates" RS_PORT="$rs_port" RS_ISSUER="$E2E_ISSUER" RS_INTROSPECT="$E2E_ISSUER/introspect/" RS_CLIENT_ID="$rs_client_id" \
        RS_SECRET="$E2E_RS_SECRET" RS_LOG="$work/resource.log" python3 "$here/resource_server.py" >"$work/resource.err" 2>&1 &
    rs_pid=$!
    trap 'status=$?; kill "$rs_pid" 2>/dev/null || true; wait "$rs_pid" 2>/dev/null || true; (exit "$status"); cleanup' EXIT
    for _ in $(seq 1 100); do
        curl --silent --output /dev/null "http://127.0.0.1:$rs_port/.well-known/oauth-protected-resource/mcp" && break
        sleep 0.1
    done
    cd "$here"
}

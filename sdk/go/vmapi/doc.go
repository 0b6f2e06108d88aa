// Machines, startup scripts, resource delegations and machine access of the VM machine API, with data sources for users, networks, templates, machines, scripts and utilization.
package vmapi

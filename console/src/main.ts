/** The console page's entry: defines its elements; index.html holds `<vmapi-console>`. */
import { ConsoleApp } from "./consoleApp";
import { ControlsView } from "./controlsView";
import { MachineDetail } from "./machineDetail";
import { MachinesView } from "./machinesView";
import { RequestsView } from "./requestsView";
import { ResourcesView } from "./resourcesView";

customElements.define("vmapi-console", ConsoleApp);
customElements.define("vmapi-machines", MachinesView);
customElements.define("vmapi-machine-detail", MachineDetail);
customElements.define("vmapi-requests", RequestsView);
customElements.define("vmapi-controls", ControlsView);
customElements.define("vmapi-resources", ResourcesView);
